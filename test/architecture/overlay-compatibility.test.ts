// The overlay pages run in OBS's browser source, Chromium 103: the build refuses CSS and script that it would not run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { cssChromium103Lacks, OVERLAY_SCRIPT } from '../../scripts/build.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** One sample per construct the check must refuse, with the words its message must hold. */
const FORBIDDEN: [string, string, string][] = [
  ['nesting inside a rule', '.card {\n  color: red;\n  .name { color: blue; }\n}', 'CSS nesting'],
  ['nesting with &', '.card {\n  color: red;\n  &:hover { color: blue; }\n}', 'CSS nesting'],
  ['nesting inside a rule inside @media', '@media (min-width: 10px) {\n  .a { .b { color: red; } }\n}', 'CSS nesting'],
  [':has()', '.card:has(.critical) { color: gold; }', ':has()'],
  ['@container', '@container (min-width: 400px) { .card { color: red; } }', 'container queries'],
  ['container-type', '.overlay-root { container-type: inline-size; }', 'container queries'],
  ['container units', '.card { width: 50cqw; }', 'container query units'],
  ['dynamic viewport units', '.card { height: 100dvh; }', 'dynamic viewport units'],
  ['color-mix()', '.card { color: color-mix(in srgb, red, blue); }', 'new colour functions'],
  ['oklch()', '.card { color: oklch(70% 0.1 200); }', 'new colour functions'],
  ['translate property', '.card { translate: 10px 0; }', 'individual transform properties'],
  ['scale property', '.card {\n  scale: 1.1;\n}', 'individual transform properties'],
  ['media range syntax', '@media (width >= 600px) { .card { color: red; } }', 'media query range syntax'],
  ['@scope', '@scope (.card) { .name { color: red; } }', '@scope'],
  ['@starting-style', '@starting-style { .card { opacity: 0; } }', '@starting-style'],
  ['text-wrap', '.name { text-wrap: balance; }', 'text-wrap'],
  ['subgrid', '.card { grid-template-columns: subgrid; }', 'subgrid'],
  ['linear() easing', '.card { transition: opacity 1s linear(0, 1); }', 'linear() easing'],
  ['scroll-driven animation', '.card { animation-timeline: scroll(); }', 'scroll-driven animations'],
  ['scrollbar-width', 'html { scrollbar-width: none; }', 'scrollbar-width'],
  ['anchor positioning', '.tip { position-anchor: --card; }', 'anchor positioning'],
  [':nth-child(of S)', '.die:nth-child(2 of .active) { color: red; }', ':nth-child'],
  ['unprefixed mask', '.portrait { mask-image: url(a.png); }', 'unprefixed mask'],
];

describe('the overlay CSS check', () => {
  it.each(FORBIDDEN)('refuses %s', (_name, css, feature) => {
    const problems = cssChromium103Lacks(css);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toContain(feature);
  });

  it('names the line of each problem', () => {
    expect(cssChromium103Lacks('.a { color: red; }\n\n.b:has(.c) { color: blue; }')).toEqual([
      'line 3: :has() (Chromium 105)',
    ]);
    expect(cssChromium103Lacks('.a {\n  color: red;\n  .b { color: blue; }\n}')).toEqual([
      'line 3: CSS nesting (Chromium 112)',
    ]);
  });

  it('allows what Chromium 103 has: @media, @supports, @keyframes, prefixed masks, transforms, comments and strings', () => {
    const css = [
      '/* .card:has(.x) { .nested {} } */',
      '.card::after { content: ":has( @container"; }',
      '@media (prefers-reduced-motion: reduce) { .a, .b { animation: none; } }',
      '@supports (backdrop-filter: blur(1px)) { .card { backdrop-filter: blur(10px); } }',
      '@keyframes slide { 0% { transform: translateX(-1em) scale(0.9); } 100% { transform: none; } }',
      '.portrait { -webkit-mask-image: url(a.png); transition: transform 1s ease; }',
      '.feed { flex-direction: column-reverse; }',
      ':is(.a, .b):where(.c) { inset: 0; aspect-ratio: 1; }',
    ].join('\n');
    expect(cssChromium103Lacks(css)).toEqual([]);
  });

  it('finds nothing in overlays/overlay.css', () => {
    expect(cssChromium103Lacks(readFileSync(join(ROOT, 'overlays', 'overlay.css'), 'utf8'))).toEqual([]);
  });
});

describe("the overlay script's build", () => {
  const bundle = (contents: string) =>
    build({ ...OVERLAY_SCRIPT, logLevel: 'silent', stdin: { contents, loader: 'ts', resolveDir: ROOT } });

  it('fails on syntax it cannot lower for Chromium 103', async () => {
    await expect(bundle('const view = await fetch("/state"); console.log(view);')).rejects.toThrow(
      /not available in the configured target environment/,
    );
  });

  it('lowers later syntax it can (class fields, ??=) into one script with no import or export', async () => {
    const result = await bundle(
      'class A { static count = 0; #id = 1; get id() { return this.#id; } }\n' +
        'let x: number | undefined; x ??= new A().id; console.log(x, A.count);',
    );
    const code = result.outputFiles[0].text;
    expect(code).not.toMatch(/\?\?=|#id|static count/);
    expect(code).not.toMatch(/^\s*(import|export)\b/m);
  });

  it('builds the overlay entry, minified and without a source map', async () => {
    const result = await build({
      ...OVERLAY_SCRIPT,
      entryPoints: [join(ROOT, 'overlays', 'main.ts')],
      outfile: '/o.js',
    });
    expect(result.outputFiles.map((file) => file.path)).toEqual(['/o.js']);
    expect(result.outputFiles[0].text).not.toContain('sourceMappingURL');
    expect(result.outputFiles[0].text.split('\n').length).toBeLessThan(5);
  });
});
