// Foundry's embedded collections: which documents live inside which, under which field of the parent's source
// (`Actor#items` holds Items). The sandbox world builds its documents by it, the change journal walks them by it.

type Collections = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Per parent document type on Foundry 13: source field → embedded document name. */
const FOUNDRY_13: Collections = {
  Actor: { items: 'Item', effects: 'ActiveEffect' },
  Item: { effects: 'ActiveEffect' },
  Scene: {
    tokens: 'Token',
    lights: 'AmbientLight',
    walls: 'Wall',
    tiles: 'Tile',
    drawings: 'Drawing',
    sounds: 'AmbientSound',
    notes: 'Note',
    templates: 'MeasuredTemplate',
    regions: 'Region',
  },
  Region: { behaviors: 'RegionBehavior' },
  Playlist: { sounds: 'PlaylistSound' },
  Combat: { combatants: 'Combatant' },
  JournalEntry: { pages: 'JournalEntryPage' },
  RollTable: { results: 'TableResult' },
  Cards: { cards: 'Card' },
};

/** Foundry 14 gave scenes Levels (which hold the background and foreground now) and removed measured templates. */
const SCENE_14 = Object.fromEntries(Object.entries(FOUNDRY_13.Scene!).filter(([field]) => field !== 'templates'));
const FOUNDRY_14: Collections = { ...FOUNDRY_13, Scene: { ...SCENE_14, levels: 'Level' } };

/** Either generation's collections: what a world of any version may send. */
const ANY_GENERATION: Collections = { ...FOUNDRY_13, Scene: { ...FOUNDRY_13.Scene, ...FOUNDRY_14.Scene } };

/**
 * The embedded collections of a document type (source field → embedded document name) on a Foundry generation, or on
 * either when the generation is not known.
 */
export function embeddedCollectionsOf(documentName: string, generation?: number): Readonly<Record<string, string>> {
  const table = generation === undefined ? ANY_GENERATION : generation >= 14 ? FOUNDRY_14 : FOUNDRY_13;
  return table[documentName] ?? {};
}
