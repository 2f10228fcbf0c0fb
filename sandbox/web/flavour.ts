// The two Foundry client generations the web client imitates, and the parts of the sheet tests look for.

export type Flavour = 'v12' | 'v13';

export const FLAVOUR_VERSIONS: Record<Flavour, string> = { v12: '12.331', v13: '13.348' };

/**
 * A square of solid colour on every sheet, painted by the stylesheet (so a capture without the stylesheet misses
 * it): `size` CSS pixels, `right` and `top` from the sheet's top-right corner. The colour differs per flavour.
 */
export const SHEET_SWATCH = {
  size: 40,
  right: 20,
  top: 40,
  colour: { v12: [30, 144, 255], v13: [0, 170, 85] } as Record<Flavour, [number, number, number]>,
};
