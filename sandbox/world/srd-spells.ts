// The spells of the System Reference Document 5.1, as facts, for the sandbox's copy of the dnd5e spell compendium
// (`dnd5e.spells`): one spell a line, `name|level|school|components|ritual|casting time|range|duration|summary`. Level 0
// is a cantrip; schools are dnd5e's codes (abj con div enc evo ill nec trs); components are V, S and M; an R marks a
// ritual; a duration that begins "Concentration" needs concentration. The summaries are written for the sandbox in
// its own words: none is the SRD's text. Read by spell-pack.ts.
//
// This work includes material taken from the System Reference Document 5.1 ("SRD 5.1") by Wizards of the Coast LLC
// and available at https://dnd.wizards.com/resources/systems-reference-document. The SRD 5.1 is licensed under the
// Creative Commons Attribution 4.0 International License available at
// https://creativecommons.org/licenses/by/4.0/legalcode.

export const SRD_SPELLS = `
Acid Arrow|2|evo|V,S,M||1 action|90 feet|Instantaneous|An acid arrow hits for acid damage now and again at the end of the target's next turn.
Acid Splash|0|con|V,S||1 action|60 feet|Instantaneous|A bubble of acid splashes one or two adjacent creatures that fail a Dexterity save.
Aid|2|abj|V,S,M||1 action|30 feet|8 hours|Up to three creatures gain 5 extra maximum and current hit points.
Alarm|1|abj|V,S,M|R|1 minute|30 feet|8 hours|Wards an area so that you are alerted when a creature enters it.
Alter Self|2|trs|V,S||1 action|Self|Concentration, up to 1 hour|Changes your body: aquatic adaptation, a new appearance, or natural weapons.
Animal Friendship|1|enc|V,S,M||1 action|30 feet|24 hours|Convinces a beast that you mean it no harm, charming it.
Animal Messenger|2|enc|V,S,M|R|1 action|30 feet|24 hours|A Tiny beast carries a short message to a place and person you describe.
Animal Shapes|8|trs|V,S||1 action|30 feet|Concentration, up to 24 hours|Transforms willing creatures into beasts of your choice.
Animate Dead|3|nec|V,S,M||1 minute|10 feet|Instantaneous|Raises a skeleton or zombie servant from bones or a corpse.
Animate Objects|5|trs|V,S||1 action|120 feet|Concentration, up to 1 minute|Brings up to ten nonmagical objects to life to fight for you.
Antilife Shell|5|abj|V,S||1 action|Self (10-foot radius)|Concentration, up to 1 hour|A barrier around you keeps out creatures other than undead and constructs.
Antimagic Field|8|abj|V,S,M||1 action|Self (10-foot-radius sphere)|Concentration, up to 1 hour|Magic does not work inside a sphere that moves with you.
Antipathy/Sympathy|8|enc|V,S,M||1 hour|60 feet|10 days|Makes a target repel or attract one kind of creature.
Arcane Eye|4|div|V,S,M||1 action|30 feet|Concentration, up to 1 hour|Creates an invisible floating eye that you see through.
Arcane Hand|5|evo|V,S,M||1 action|120 feet|Concentration, up to 1 minute|A large hand of force punches, shoves, grasps or shields at your command.
Arcane Lock|2|abj|V,S,M||1 action|Touch|Until dispelled|Magically locks a door, window or container.
Arcane Sword|7|evo|V,S,M||1 action|60 feet|Concentration, up to 1 minute|A floating blade of force attacks targets you choose.
Arcanist's Magic Aura|2|ill|V,S,M||1 action|Touch|24 hours|Masks or falsifies how a creature or object appears to divination.
Astral Projection|9|nec|V,S,M||1 hour|10 feet|Special|Projects you and your companions into the Astral Plane.
Augury|2|div|V,S,M|R|1 minute|Self|Instantaneous|Receives an omen about a course of action in the next 30 minutes.
Awaken|5|trs|V,S,M||8 hours|Touch|Instantaneous|Gives a beast or plant intelligence, speech and friendliness toward you.
Bane|1|enc|V,S,M||1 action|30 feet|Concentration, up to 1 minute|Up to three creatures subtract a d4 from attack rolls and saving throws.
Banishment|4|abj|V,S,M||1 action|60 feet|Concentration, up to 1 minute|Sends a creature to another plane, for good if it is not native here.
Barkskin|2|trs|V,S,M||1 action|Touch|Concentration, up to 1 hour|A creature's armor class cannot drop below 16.
Beacon of Hope|3|abj|V,S||1 action|30 feet|Concentration, up to 1 minute|Creatures gain advantage on Wisdom and death saves and heal to the maximum.
Bestow Curse|3|nec|V,S||1 action|Touch|Concentration, up to 1 minute|Curses a creature with one of several hindrances.
Black Tentacles|4|con|V,S,M||1 action|90 feet|Concentration, up to 1 minute|Tentacles fill an area, restraining and crushing creatures there.
Blade Barrier|6|evo|V,S||1 action|90 feet|Concentration, up to 10 minutes|A wall of whirling blades slashes creatures that pass through it.
Bless|1|enc|V,S,M||1 action|30 feet|Concentration, up to 1 minute|Up to three creatures add a d4 to attack rolls and saving throws.
Blight|4|nec|V,S||1 action|30 feet|Instantaneous|Drains moisture and life from a creature, dealing necrotic damage.
Blindness/Deafness|2|nec|V||1 action|30 feet|1 minute|Blinds or deafens a foe that fails a Constitution save.
Blink|3|trs|V,S||1 action|Self|1 minute|You may vanish into the Ethereal Plane at the end of each of your turns.
Blur|2|ill|V||1 action|Self|Concentration, up to 1 minute|Your blurred shape gives attackers disadvantage.
Burning Hands|1|evo|V,S||1 action|Self (15-foot cone)|Instantaneous|A thin sheet of flame fans out from your hands.
Call Lightning|3|con|V,S||1 action|120 feet|Concentration, up to 10 minutes|Calls bolts of lightning down from a storm cloud above you.
Calm Emotions|2|enc|V,S||1 action|60 feet|Concentration, up to 1 minute|Suppresses strong emotions in humanoids in an area.
Chain Lightning|6|evo|V,S,M||1 action|150 feet|Instantaneous|A bolt strikes one target, then leaps to up to three others.
Charm Person|1|enc|V,S||1 action|30 feet|1 hour|A humanoid regards you as a friendly acquaintance.
Chill Touch|0|nec|V,S||1 action|120 feet|1 round|A ghostly hand deals necrotic damage and stops the target from healing.
Circle of Death|6|nec|V,S,M||1 action|150 feet|Instantaneous|A sphere of negative energy deals necrotic damage over a wide area.
Clairvoyance|3|div|V,S,M||10 minutes|1 mile|Concentration, up to 10 minutes|Creates an invisible sensor to see or hear a place you know.
Clone|8|nec|V,S,M||1 hour|Touch|Instantaneous|Grows an inert duplicate that your soul enters if you die.
Cloudkill|5|con|V,S||1 action|120 feet|Concentration, up to 10 minutes|A creeping fog of poison damages creatures inside it.
Color Spray|1|ill|V,S,M||1 action|Self (15-foot cone)|1 round|Flashing colors blind creatures, those with the fewest hit points first.
Command|1|enc|V||1 action|60 feet|1 round|Speaks a one-word command that a creature must obey.
Commune|5|div|V,S,M|R|1 minute|Self|1 minute|Asks your deity up to three yes-or-no questions.
Commune with Nature|5|div|V,S|R|1 minute|Self|Instantaneous|Learns facts about the surrounding natural territory.
Comprehend Languages|1|div|V,S,M|R|1 action|Self|1 hour|You understand any spoken or written language.
Compulsion|4|enc|V,S||1 action|30 feet|Concentration, up to 1 minute|Forces creatures that hear you to move in a direction you choose.
Cone of Cold|5|evo|V,S,M||1 action|Self (60-foot cone)|Instantaneous|A blast of cold air deals cold damage in a cone.
Confusion|4|enc|V,S,M||1 action|90 feet|Concentration, up to 1 minute|Creatures in an area act at random.
Conjure Animals|3|con|V,S||1 action|60 feet|Concentration, up to 1 hour|Summons fey spirits in the shape of beasts.
Conjure Celestial|7|con|V,S||1 minute|90 feet|Concentration, up to 1 hour|Summons a celestial that obeys your commands.
Conjure Elemental|5|con|V,S,M||1 minute|90 feet|Concentration, up to 1 hour|Summons an elemental out of a mass of its element.
Conjure Fey|6|con|V,S||1 minute|90 feet|Concentration, up to 1 hour|Summons a fey creature, or a fey spirit in the form of a beast.
Conjure Minor Elementals|4|con|V,S||1 minute|90 feet|Concentration, up to 1 hour|Summons small elementals to fight for you.
Conjure Woodland Beings|4|con|V,S,M||1 action|60 feet|Concentration, up to 1 hour|Summons fey creatures of the forest.
Contact Other Plane|5|div|V|R|1 minute|Self|1 minute|Questions an extraplanar entity at the risk of madness.
Contagion|5|nec|V,S||1 action|Touch|7 days|Infects a creature with a magical disease.
Contingency|6|evo|V,S,M||10 minutes|Self|10 days|Stores a spell that takes effect when a condition you set occurs.
Continual Flame|2|evo|V,S,M||1 action|Touch|Until dispelled|Makes an object shed a heatless flame that never goes out.
Control Water|4|trs|V,S,M||1 action|300 feet|Concentration, up to 10 minutes|Floods, parts, redirects or whirls a body of water.
Control Weather|8|trs|V,S,M||10 minutes|Self (5-mile radius)|Concentration, up to 8 hours|Changes the weather around you over time.
Counterspell|3|abj|S||1 reaction|60 feet|Instantaneous|Interrupts a creature in the act of casting a spell.
Create Food and Water|3|con|V,S||1 action|30 feet|Instantaneous|Creates food and water enough for fifteen humanoids for a day.
Create or Destroy Water|1|trs|V,S,M||1 action|30 feet|Instantaneous|Creates or destroys up to 10 gallons of water.
Create Undead|6|nec|V,S,M||1 minute|10 feet|Instantaneous|Raises ghouls and stronger undead from corpses at night.
Creation|5|ill|V,S,M||1 minute|30 feet|Special|Shapes a temporary object out of shadow material.
Cure Wounds|1|evo|V,S||1 action|Touch|Instantaneous|Heals a creature you touch.
Dancing Lights|0|evo|V,S,M||1 action|120 feet|Concentration, up to 1 minute|Creates up to four floating lights that you move.
Darkness|2|evo|V,M||1 action|60 feet|Concentration, up to 10 minutes|Fills a sphere with magical darkness that ordinary sight cannot pierce.
Darkvision|2|trs|V,S,M||1 action|Touch|8 hours|A willing creature can see in the dark.
Daylight|3|evo|V,S||1 action|60 feet|1 hour|A sphere of bright light spreads from a point or an object.
Death Ward|4|abj|V,S||1 action|Touch|8 hours|The first time the creature would drop to 0 hit points, it drops to 1 instead.
Delayed Blast Fireball|7|evo|V,S,M||1 action|150 feet|Concentration, up to 1 minute|A glowing bead explodes in flame, stronger the longer it waits.
Demiplane|8|con|S||1 action|60 feet|1 hour|Opens a shadowy door to an empty extradimensional room.
Detect Evil and Good|1|div|V,S||1 action|Self|Concentration, up to 10 minutes|Senses aberrations, celestials, elementals, fey, fiends and undead nearby.
Detect Magic|1|div|V,S|R|1 action|Self|Concentration, up to 10 minutes|Senses the presence of magic within 30 feet.
Detect Poison and Disease|1|div|V,S,M|R|1 action|Self|Concentration, up to 10 minutes|Senses poisons, poisonous creatures and diseases nearby.
Detect Thoughts|2|div|V,S,M||1 action|Self|Concentration, up to 1 minute|Reads the surface thoughts of nearby creatures.
Dimension Door|4|con|V||1 action|500 feet|Instantaneous|Teleports you, and perhaps one companion, to a spot within range.
Disguise Self|1|ill|V,S||1 action|Self|1 hour|Changes how you look, clothing and equipment included.
Disintegrate|6|trs|V,S,M||1 action|60 feet|Instantaneous|A thin ray turns a target to dust if it drops it to 0 hit points.
Dispel Evil and Good|5|abj|V,S,M||1 action|Self|Concentration, up to 1 minute|Shields you from otherworldly creatures and can banish them.
Dispel Magic|3|abj|V,S||1 action|120 feet|Instantaneous|Ends spells on a creature, an object or a magical effect.
Divination|4|div|V,S,M|R|1 action|Self|Instantaneous|Asks a servant of your god one question about the coming week.
Divine Favor|1|evo|V,S||1 bonus action|Self|Concentration, up to 1 minute|Your weapon attacks deal extra radiant damage.
Divine Word|7|evo|V||1 bonus action|30 feet|Instantaneous|A word of power deafens, blinds, stuns or kills according to hit points.
Dominate Beast|4|enc|V,S||1 action|60 feet|Concentration, up to 1 minute|Takes control of a beast.
Dominate Monster|8|enc|V,S||1 action|60 feet|Concentration, up to 1 hour|Takes control of any creature.
Dominate Person|5|enc|V,S||1 action|60 feet|Concentration, up to 1 minute|Takes control of a humanoid.
Dream|5|ill|V,S,M||1 minute|Special|8 hours|Shapes a creature's dreams to speak to it or torment it.
Druidcraft|0|trs|V,S||1 action|30 feet|Instantaneous|Small natural wonders: foretell the weather, open a flower, light a candle.
Earthquake|8|evo|V,S,M||1 action|500 feet|Concentration, up to 1 minute|Shakes the ground violently, opening fissures and toppling structures.
Eldritch Blast|0|evo|V,S||1 action|120 feet|Instantaneous|A beam of crackling energy deals force damage.
Enhance Ability|2|trs|V,S,M||1 action|Touch|Concentration, up to 1 hour|Grants advantage on checks of one ability, with a side benefit.
Enlarge/Reduce|2|trs|V,S,M||1 action|30 feet|Concentration, up to 1 minute|Makes a creature or object larger or smaller.
Entangle|1|con|V,S||1 action|90 feet|Concentration, up to 1 minute|Grasping weeds restrain creatures in an area.
Enthrall|2|enc|V,S||1 action|60 feet|1 minute|Your words hold creatures' attention and dull their perception.
Etherealness|7|trs|V,S||1 action|Self|Up to 8 hours|You step into the border regions of the Ethereal Plane.
Expeditious Retreat|1|trs|V,S||1 bonus action|Self|Concentration, up to 10 minutes|Lets you Dash as a bonus action.
Eyebite|6|nec|V,S||1 action|Self|Concentration, up to 1 minute|Your gaze puts creatures to sleep, panics them or sickens them.
Fabricate|4|trs|V,S||10 minutes|120 feet|Instantaneous|Turns raw materials into finished products.
Faerie Fire|1|evo|V||1 action|60 feet|Concentration, up to 1 minute|Outlines creatures in light, giving advantage against them.
Faithful Hound|4|con|V,S,M||1 action|30 feet|8 hours|An invisible phantom watchdog guards an area and bites intruders.
False Life|1|nec|V,S,M||1 action|Self|1 hour|Grants you temporary hit points.
Fear|3|ill|V,S,M||1 action|Self (30-foot cone)|Concentration, up to 1 minute|Creatures in a cone drop what they hold and flee.
Feather Fall|1|trs|V,M||1 reaction|60 feet|1 minute|Slows the fall of up to five creatures.
Feeblemind|8|enc|V,S,M||1 action|150 feet|Instantaneous|Shatters a creature's mind, lowering Intelligence and Charisma to 1.
Find Familiar|1|con|V,S,M|R|1 hour|10 feet|Instantaneous|Summons a spirit that serves you as an animal familiar.
Find Steed|2|con|V,S||10 minutes|30 feet|Instantaneous|Summons a loyal, intelligent spirit as a mount.
Find the Path|6|div|V,S,M||1 minute|Self|Concentration, up to 1 day|You know the shortest route to a place you name.
Find Traps|2|div|V,S||1 action|120 feet|Instantaneous|Senses traps within your line of sight.
Finger of Death|7|nec|V,S||1 action|60 feet|Instantaneous|Necrotic energy harms a creature; a slain humanoid rises as a zombie.
Fire Bolt|0|evo|V,S||1 action|120 feet|Instantaneous|Hurls a mote of fire that deals fire damage.
Fire Shield|4|evo|V,S,M||1 action|Self|10 minutes|Flames around you resist heat or cold and burn attackers.
Fire Storm|7|evo|V,S||1 action|150 feet|Instantaneous|A storm of flame fills cubes you choose.
Fireball|3|evo|V,S,M||1 action|150 feet|Instantaneous|A bead of flame bursts into a 20-foot-radius sphere of fire.
Flame Blade|2|evo|V,S,M||1 bonus action|Self|Concentration, up to 10 minutes|Conjures a fiery blade that you attack with.
Flame Strike|5|evo|V,S,M||1 action|60 feet|Instantaneous|A column of divine fire deals fire and radiant damage.
Flaming Sphere|2|con|V,S,M||1 action|60 feet|Concentration, up to 1 minute|A rolling sphere of fire burns creatures next to it.
Flesh to Stone|6|trs|V,S,M||1 action|60 feet|Concentration, up to 1 minute|Slowly turns a creature to stone.
Floating Disk|1|con|V,S,M|R|1 action|30 feet|1 hour|A floating disk of force carries up to 500 pounds behind you.
Fly|3|trs|V,S,M||1 action|Touch|Concentration, up to 10 minutes|A creature gains a flying speed of 60 feet.
Fog Cloud|1|con|V,S||1 action|120 feet|Concentration, up to 1 hour|A sphere of fog heavily obscures an area.
Forbiddance|6|abj|V,S,M|R|10 minutes|Touch|1 day|Wards an area against planar travel and harms chosen kinds of creature.
Forcecage|7|evo|V,S,M||1 action|100 feet|1 hour|An invisible prison of force traps creatures.
Foresight|9|div|V,S,M||1 minute|Touch|8 hours|A creature cannot be surprised and has advantage on most rolls.
Freedom of Movement|4|abj|V,S,M||1 action|Touch|1 hour|A creature ignores difficult terrain, paralysis and restraint.
Freezing Sphere|6|evo|V,S,M||1 action|300 feet|Instantaneous|A globe of cold bursts for cold damage or freezes water.
Gaseous Form|3|trs|V,S,M||1 action|Touch|Concentration, up to 1 hour|Turns a creature into a misty cloud.
Gate|9|con|V,S,M||1 action|60 feet|Concentration, up to 1 minute|Opens a portal to another plane, or draws a named creature through.
Geas|5|enc|V||1 minute|60 feet|30 days|Commands a creature to carry out a service or suffer damage.
Gentle Repose|2|nec|V,S,M|R|1 action|Touch|10 days|Protects a corpse from decay and from becoming undead.
Giant Insect|4|trs|V,S||1 action|30 feet|Concentration, up to 10 minutes|Turns insects into giant versions that obey you.
Glibness|8|trs|V||1 action|Self|1 hour|Your Charisma checks roll at least 15, and your lies pass magical truth detection.
Globe of Invulnerability|6|abj|V,S,M||1 action|Self (10-foot radius)|Concentration, up to 1 minute|A barrier keeps spells of 5th level or lower from entering.
Glyph of Warding|3|abj|V,S,M||1 hour|Touch|Until dispelled or triggered|Inscribes a glyph that explodes or releases a spell when triggered.
Goodberry|1|trs|V,S,M||1 action|Touch|Instantaneous|Creates ten berries that each nourish and heal 1 hit point.
Grease|1|con|V,S,M||1 action|60 feet|1 minute|Slick grease makes an area difficult terrain and can knock creatures prone.
Greater Invisibility|4|ill|V,S||1 action|Touch|Concentration, up to 1 minute|A creature stays invisible even while it attacks or casts.
Greater Restoration|5|abj|V,S,M||1 action|Touch|Instantaneous|Removes charm, petrification, a curse, exhaustion or a reduction.
Guardian of Faith|4|con|V||1 action|30 feet|8 hours|A spectral guardian damages hostile creatures that come near it.
Guards and Wards|6|abj|V,S,M||10 minutes|Touch|24 hours|Protects a stronghold with fog, webs, locks and other wards.
Guidance|0|div|V,S||1 action|Touch|Concentration, up to 1 minute|A creature adds a d4 to one ability check.
Guiding Bolt|1|evo|V,S||1 action|120 feet|1 round|A flash of light deals radiant damage and gives advantage on the next attack.
Gust of Wind|2|evo|V,S,M||1 action|Self (60-foot line)|Concentration, up to 1 minute|A strong wind pushes creatures back and disperses gas.
Hallow|5|evo|V,S,M||24 hours|Touch|Until dispelled|Sanctifies an area against chosen creatures and binds an extra effect to it.
Hallucinatory Terrain|4|ill|V,S,M||10 minutes|300 feet|24 hours|Makes natural terrain look, sound and smell like other terrain.
Harm|6|nec|V,S||1 action|60 feet|Instantaneous|A virulent disease deals necrotic damage and lowers maximum hit points.
Haste|3|trs|V,S,M||1 action|30 feet|Concentration, up to 1 minute|Doubles a creature's speed and grants armor class and an extra action.
Heal|6|evo|V,S||1 action|60 feet|Instantaneous|Restores 70 hit points and ends blindness, deafness and diseases.
Healing Word|1|evo|V||1 bonus action|60 feet|Instantaneous|Heals a creature you can see at range.
Heat Metal|2|trs|V,S,M||1 action|60 feet|Concentration, up to 1 minute|Makes a metal object glow red-hot, burning whoever touches it.
Heroes' Feast|6|con|V,S,M||10 minutes|30 feet|Instantaneous|A magnificent feast protects and heartens those who eat it.
Heroism|1|enc|V,S||1 action|Touch|Concentration, up to 1 minute|A creature is immune to fear and gains temporary hit points each turn.
Hideous Laughter|1|enc|V,S,M||1 action|30 feet|Concentration, up to 1 minute|A creature falls prone, helpless with laughter.
Hold Monster|5|enc|V,S,M||1 action|90 feet|Concentration, up to 1 minute|Paralyzes a creature that fails a Wisdom save.
Hold Person|2|enc|V,S,M||1 action|60 feet|Concentration, up to 1 minute|Paralyzes a humanoid that fails a Wisdom save.
Holy Aura|8|abj|V,S,M||1 action|Self|Concentration, up to 1 minute|Divine light gives allies advantage on saves and blinds fiends and undead that strike them.
Hunter's Mark|1|div|V||1 bonus action|90 feet|Concentration, up to 1 hour|Marks a quarry that takes extra damage from your weapon attacks.
Hypnotic Pattern|3|ill|S,M||1 action|120 feet|Concentration, up to 1 minute|A twisting pattern of colors charms and incapacitates creatures.
Ice Storm|4|evo|V,S,M||1 action|300 feet|Instantaneous|Hail pounds an area with bludgeoning and cold damage.
Identify|1|div|V,S,M|R|1 minute|Touch|Instantaneous|Learns the properties of a magic item or the spells on a creature.
Illusory Script|1|ill|S,M|R|1 minute|Touch|10 days|Writes a message that only chosen readers understand.
Imprisonment|9|abj|V,S,M||1 minute|30 feet|Until dispelled|Binds a creature in a prison of your choice.
Incendiary Cloud|8|con|V,S||1 action|150 feet|Concentration, up to 1 minute|A drifting cloud of embers burns creatures inside it.
Inflict Wounds|1|nec|V,S||1 action|Touch|Instantaneous|A touch deals heavy necrotic damage.
Insect Plague|5|con|V,S,M||1 action|300 feet|Concentration, up to 10 minutes|A swarm of locusts bites creatures in a sphere.
Instant Summons|6|con|V,S,M|R|1 minute|Touch|Until dispelled|Marks an object that you can call to your hand.
Invisibility|2|ill|V,S,M||1 action|Touch|Concentration, up to 1 hour|A creature is invisible until it attacks or casts a spell.
Irresistible Dance|6|enc|V||1 action|30 feet|Concentration, up to 1 minute|A creature dances uncontrollably in place.
Jump|1|trs|V,S,M||1 action|Touch|1 minute|Triples a creature's jump distance.
Knock|2|trs|V||1 action|60 feet|Instantaneous|Opens a lock, door or container with a loud knock.
Legend Lore|5|div|V,S,M||10 minutes|Self|Instantaneous|Learns the legends about a person, place or object.
Lesser Restoration|2|abj|V,S||1 action|Touch|Instantaneous|Ends one disease, or blindness, deafness, paralysis or poison.
Levitate|2|trs|V,S,M||1 action|60 feet|Concentration, up to 10 minutes|Raises a creature or object into the air.
Light|0|evo|V,M||1 action|Touch|1 hour|Makes an object shed bright light.
Lightning Bolt|3|evo|V,S,M||1 action|Self (100-foot line)|Instantaneous|A stroke of lightning deals lightning damage along a line.
Locate Animals or Plants|2|div|V,S,M|R|1 action|Self|Instantaneous|Finds the nearest beast or plant of a kind you name.
Locate Creature|4|div|V,S,M||1 action|Self|Concentration, up to 1 hour|Senses the direction of a creature you know.
Locate Object|2|div|V,S,M||1 action|Self|Concentration, up to 10 minutes|Senses the direction of an object you know.
Longstrider|1|trs|V,S,M||1 action|Touch|1 hour|A creature's speed increases by 10 feet.
Mage Armor|1|abj|V,S,M||1 action|Touch|8 hours|An unarmored creature's base armor class becomes 13 plus its Dexterity modifier.
Mage Hand|0|con|V,S||1 action|30 feet|1 minute|A spectral hand handles objects at a distance.
Magic Circle|3|abj|V,S,M||1 minute|10 feet|1 hour|A circle hinders chosen kinds of creature from crossing it.
Magic Jar|6|nec|V,S,M||1 minute|Self|Until dispelled|Moves your soul into a container, from which you can possess bodies.
Magic Missile|1|evo|V,S||1 action|120 feet|Instantaneous|Three darts of force strike their targets without fail.
Magic Mouth|2|ill|V,S,M|R|1 minute|30 feet|Until dispelled|An object speaks a message when a condition is met.
Magic Weapon|2|trs|V,S||1 bonus action|Touch|Concentration, up to 1 hour|A nonmagical weapon becomes a +1 magic weapon.
Magnificent Mansion|7|con|V,S,M||1 minute|300 feet|24 hours|Opens the door to a furnished extradimensional dwelling.
Major Image|3|ill|V,S,M||1 action|120 feet|Concentration, up to 10 minutes|Creates an illusion with sound, smell and temperature.
Mass Cure Wounds|5|evo|V,S||1 action|60 feet|Instantaneous|Heals up to six creatures in a sphere.
Mass Heal|9|evo|V,S||1 action|60 feet|Instantaneous|Shares up to 700 hit points of healing among creatures.
Mass Healing Word|3|evo|V||1 bonus action|60 feet|Instantaneous|Heals up to six creatures at range.
Mass Suggestion|6|enc|V,M||1 action|60 feet|24 hours|Suggests a course of action to up to twelve creatures.
Maze|8|con|V,S||1 action|60 feet|Concentration, up to 10 minutes|Banishes a creature into a labyrinthine demiplane.
Meld into Stone|3|trs|V,S|R|1 action|Touch|8 hours|You step into a stone object or surface.
Mending|0|trs|V,S,M||1 minute|Touch|Instantaneous|Repairs a single break or tear in an object.
Message|0|trs|V,S,M||1 action|120 feet|1 round|Whispers a message to a creature, which can whisper back.
Meteor Swarm|9|evo|V,S||1 action|1 mile|Instantaneous|Four blazing orbs crash down, dealing fire and bludgeoning damage.
Mind Blank|8|abj|V,S||1 action|Touch|24 hours|A creature is immune to psychic damage, mind reading and charm.
Minor Illusion|0|ill|S,M||1 action|30 feet|1 minute|Creates a sound or the image of an object.
Mirage Arcane|7|ill|V,S||10 minutes|Sight|10 days|Makes terrain in a large area look, sound, smell and feel like other terrain.
Mirror Image|2|ill|V,S||1 action|Self|1 minute|Three illusory duplicates draw attacks away from you.
Mislead|5|ill|S||1 action|Self|Concentration, up to 1 hour|You turn invisible while an illusory double of you moves on.
Misty Step|2|con|V||1 bonus action|Self|Instantaneous|Teleports you up to 30 feet.
Modify Memory|5|enc|V,S||1 action|30 feet|Concentration, up to 1 minute|Reshapes a creature's memories.
Moonbeam|2|evo|V,S,M||1 action|120 feet|Concentration, up to 1 minute|A beam of pale light deals radiant damage and reveals shapechangers.
Move Earth|6|trs|V,S,M||1 action|120 feet|Concentration, up to 2 hours|Reshapes dirt, sand or clay over an area.
Nondetection|3|abj|V,S,M||1 action|Touch|8 hours|Hides a creature, place or object from divination magic.
Pass without Trace|2|abj|V,S,M||1 action|Self|Concentration, up to 1 hour|You and your companions gain +10 to Stealth and leave no tracks.
Passwall|5|trs|V,S,M||1 action|30 feet|1 hour|Opens a passage through a wooden, plaster or stone surface.
Phantasmal Killer|4|ill|V,S||1 action|120 feet|Concentration, up to 1 minute|An illusion of deepest fears frightens and damages a creature.
Phantom Steed|3|ill|V,S|R|1 minute|30 feet|1 hour|Creates a quasi-real, horselike mount.
Planar Ally|6|con|V,S||10 minutes|60 feet|Instantaneous|Asks an otherworldly entity to send a creature to help you.
Planar Binding|5|abj|V,S,M||1 hour|60 feet|24 hours|Binds a celestial, elemental, fey or fiend to your service.
Plane Shift|7|con|V,S,M||1 action|Touch|Instantaneous|Carries creatures to another plane, or banishes one there.
Plant Growth|3|trs|V,S||1 action|150 feet|Instantaneous|Makes plants overgrow an area, or enriches land for a year.
Poison Spray|0|con|V,S||1 action|10 feet|Instantaneous|A puff of noxious gas deals poison damage.
Polymorph|4|trs|V,S,M||1 action|60 feet|Concentration, up to 1 hour|Transforms a creature into a beast.
Power Word Kill|9|enc|V||1 action|60 feet|Instantaneous|Kills a creature with 100 hit points or fewer.
Power Word Stun|8|enc|V||1 action|60 feet|Instantaneous|Stuns a creature with 150 hit points or fewer.
Prayer of Healing|2|evo|V||10 minutes|30 feet|Instantaneous|Heals up to six creatures.
Prestidigitation|0|trs|V,S||1 action|10 feet|Up to 1 hour|Minor tricks: sparks, cleaning, warmth, flavor, a mark or a trinket.
Prismatic Spray|7|evo|V,S||1 action|Self (60-foot cone)|Instantaneous|Rays of seven colors strike creatures with varied effects.
Prismatic Wall|9|abj|V,S||1 action|60 feet|10 minutes|A wall of seven colored layers blocks and harms those who touch it.
Private Sanctum|4|abj|V,S,M||10 minutes|120 feet|24 hours|Secures an area against sight, sound, divination and teleportation.
Produce Flame|0|con|V,S||1 action|Self|10 minutes|A flame in your hand sheds light and can be hurled.
Programmed Illusion|6|ill|V,S,M||1 action|120 feet|Until dispelled|An illusion plays out when a condition you set is met.
Project Image|7|ill|V,S,M||1 action|500 miles|Concentration, up to 1 day|Creates an illusory copy of you that you see and speak through.
Protection from Energy|3|abj|V,S||1 action|Touch|Concentration, up to 1 hour|A creature resists acid, cold, fire, lightning or thunder damage.
Protection from Evil and Good|1|abj|V,S,M||1 action|Touch|Concentration, up to 10 minutes|Protects a creature from aberrations, celestials, elementals, fey, fiends and undead.
Protection from Poison|2|abj|V,S||1 action|Touch|1 hour|Neutralizes a poison and grants resistance to poison.
Purify Food and Drink|1|trs|V,S|R|1 action|10 feet|Instantaneous|Removes poison and disease from food and drink.
Raise Dead|5|nec|V,S,M||1 hour|Touch|Instantaneous|Returns a creature dead no longer than 10 days to life.
Ray of Enfeeblement|2|nec|V,S||1 action|60 feet|Concentration, up to 1 minute|A creature deals half damage with Strength-based weapon attacks.
Ray of Frost|0|evo|V,S||1 action|60 feet|Instantaneous|A frigid beam deals cold damage and slows the target.
Regenerate|7|trs|V,S,M||1 minute|Touch|1 hour|A creature regains hit points every round and regrows lost body parts.
Reincarnate|5|trs|V,S,M||1 hour|Touch|Instantaneous|Gives a dead humanoid a new, random body.
Remove Curse|3|abj|V,S||1 action|Touch|Instantaneous|Ends every curse on a creature or object.
Resilient Sphere|4|evo|V,S,M||1 action|30 feet|Concentration, up to 1 minute|Encloses a creature or object in a sphere of force.
Resistance|0|abj|V,S,M||1 action|Touch|Concentration, up to 1 minute|A creature adds a d4 to one saving throw.
Resurrection|7|nec|V,S,M||1 hour|Touch|Instantaneous|Returns a creature dead no longer than a century to life.
Reverse Gravity|7|trs|V,S,M||1 action|100 feet|Concentration, up to 1 minute|Gravity reverses in a cylinder, and everything in it falls upward.
Revivify|3|nec|V,S,M||1 action|Touch|Instantaneous|Returns a creature that died in the last minute to life.
Rope Trick|2|trs|V,S,M||1 action|Touch|1 hour|A rope climbs to an extradimensional hiding place.
Sacred Flame|0|evo|V,S||1 action|60 feet|Instantaneous|Flame-like radiance descends on a creature.
Sanctuary|1|abj|V,S,M||1 bonus action|30 feet|1 minute|Attackers must pass a Wisdom save to target the warded creature.
Scorching Ray|2|evo|V,S||1 action|120 feet|Instantaneous|Three rays of fire each deal fire damage.
Scrying|5|div|V,S,M||10 minutes|Self|Concentration, up to 10 minutes|Sees and hears a creature on the same plane.
Secret Chest|4|con|V,S,M||1 action|Touch|Instantaneous|Hides a chest in the Ethereal Plane to recall later.
See Invisibility|2|div|V,S,M||1 action|Self|1 hour|You see invisible creatures and objects, and into the Ethereal Plane.
Seeming|5|ill|V,S||1 action|30 feet|8 hours|Changes the appearance of any number of creatures.
Sending|3|evo|V,S,M||1 action|Unlimited|1 round|Sends a short message to a creature you know, which can reply.
Sequester|7|trs|V,S,M||1 action|Touch|Until dispelled|Hides a creature or object from divination, in suspended animation.
Shapechange|9|trs|V,S,M||1 action|Self|Concentration, up to 1 hour|Assumes the form of another creature.
Shatter|2|evo|V,S,M||1 action|60 feet|Instantaneous|A painfully loud ringing deals thunder damage in a sphere.
Shield|1|abj|V,S||1 reaction|Self|1 round|An invisible barrier grants +5 armor class and stops magic missile.
Shield of Faith|1|abj|V,S,M||1 bonus action|60 feet|Concentration, up to 10 minutes|A shimmering field grants a creature +2 armor class.
Shillelagh|0|trs|V,S,M||1 bonus action|Touch|1 minute|Your club or quarterstaff strikes with your spellcasting ability.
Shocking Grasp|0|evo|V,S||1 action|Touch|Instantaneous|Lightning deals damage and takes away the target's reactions.
Silence|2|ill|V,S|R|1 action|120 feet|Concentration, up to 10 minutes|No sound can be made or pass within a sphere.
Silent Image|1|ill|V,S,M||1 action|60 feet|Concentration, up to 10 minutes|Creates a visual illusion of an object or creature.
Simulacrum|7|ill|V,S,M||12 hours|Touch|Until dispelled|Shapes an illusory duplicate of a beast or humanoid that obeys you.
Sleep|1|enc|V,S,M||1 action|90 feet|1 minute|Sends creatures into a magical slumber, the weakest first.
Sleet Storm|3|con|V,S,M||1 action|150 feet|Concentration, up to 1 minute|Freezing rain and sleet obscure an area and knock creatures prone.
Slow|3|trs|V,S,M||1 action|120 feet|Concentration, up to 1 minute|Up to six creatures move and act more slowly.
Spare the Dying|0|nec|V,S||1 action|Touch|Instantaneous|Stabilizes a creature at 0 hit points.
Speak with Animals|1|div|V,S|R|1 action|Self|10 minutes|You can talk with beasts.
Speak with Dead|3|nec|V,S,M||1 action|10 feet|10 minutes|A corpse answers up to five questions.
Speak with Plants|3|trs|V,S||1 action|Self (30-foot radius)|10 minutes|Plants nearby can talk with you and move aside.
Spider Climb|2|trs|V,S,M||1 action|Touch|Concentration, up to 1 hour|A creature climbs walls and ceilings with its hands free.
Spike Growth|2|trs|V,S,M||1 action|150 feet|Concentration, up to 10 minutes|Hidden thorns pierce creatures that move through an area.
Spirit Guardians|3|con|V,S,M||1 action|Self (15-foot radius)|Concentration, up to 10 minutes|Protective spirits slow and damage enemies near you.
Spiritual Weapon|2|evo|V,S||1 bonus action|60 feet|1 minute|A floating spectral weapon strikes foes.
Stinking Cloud|3|con|V,S,M||1 action|90 feet|Concentration, up to 1 minute|Nauseating gas makes creatures waste their actions retching.
Stone Shape|4|trs|V,S,M||1 action|Touch|Instantaneous|Forms a stone object into any shape.
Stoneskin|4|abj|V,S,M||1 action|Touch|Concentration, up to 1 hour|A creature resists nonmagical bludgeoning, piercing and slashing damage.
Storm of Vengeance|9|con|V,S||1 action|Sight|Concentration, up to 1 minute|A churning storm cloud unleashes thunder, acid, lightning and hail.
Suggestion|2|enc|V,M||1 action|30 feet|Concentration, up to 8 hours|Suggests a reasonable-sounding course of action.
Sunbeam|6|evo|V,S,M||1 action|Self (60-foot line)|Concentration, up to 1 minute|A beam of sunlight deals radiant damage and blinds.
Sunburst|8|evo|V,S,M||1 action|150 feet|Instantaneous|Brilliant sunlight deals radiant damage and blinds over a wide area.
Symbol|7|abj|V,S,M||1 minute|Touch|Until dispelled or triggered|Inscribes a glyph that unleashes a harmful effect when triggered.
Telekinesis|5|trs|V,S||1 action|60 feet|Concentration, up to 10 minutes|Moves creatures and objects with your mind.
Telepathic Bond|5|div|V,S,M|R|1 action|30 feet|1 hour|Links up to eight creatures telepathically.
Teleport|7|con|V||1 action|10 feet|Instantaneous|Transports you and your companions to a destination you choose.
Teleportation Circle|5|con|V,M||1 minute|10 feet|1 round|Opens a portal to a permanent teleportation circle whose sigils you know.
Thaumaturgy|0|trs|V||1 action|30 feet|Up to 1 minute|Minor wonders: a booming voice, tremors, flickering flames.
Thunderwave|1|evo|V,S||1 action|Self (15-foot cube)|Instantaneous|A wave of thunder damages creatures and pushes them away.
Time Stop|9|trs|V||1 action|Self|Instantaneous|Time stops for everyone but you for a few turns.
Tiny Hut|3|evo|V,S,M|R|1 minute|Self (10-foot-radius hemisphere)|8 hours|A dome of force shelters you and your companions.
Tongues|3|div|V,M||1 action|Touch|1 hour|A creature understands and is understood in any spoken language.
Transport via Plants|6|con|V,S||1 action|10 feet|1 round|Links two large plants so that creatures step from one to the other.
Tree Stride|5|con|V,S||1 action|Self|Concentration, up to 1 minute|You step into a tree and out of another of its kind nearby.
True Polymorph|9|trs|V,S,M||1 action|30 feet|Concentration, up to 1 hour|Transforms a creature or object into another creature or object.
True Resurrection|9|nec|V,S,M||1 hour|Touch|Instantaneous|Returns a creature dead up to 200 years to life, in a new body if need be.
True Seeing|6|div|V,S,M||1 action|Touch|1 hour|A creature sees things as they really are.
True Strike|0|div|S||1 action|30 feet|Concentration, up to 1 round|Grants advantage on your next attack against one target.
Unseen Servant|1|con|V,S,M|R|1 action|60 feet|1 hour|An invisible force does simple tasks for you.
Vampiric Touch|3|nec|V,S||1 action|Self|Concentration, up to 1 minute|Your touch deals necrotic damage and heals you for half of it.
Vicious Mockery|0|enc|V||1 action|60 feet|Instantaneous|Insults deal psychic damage and give disadvantage on the next attack.
Wall of Fire|4|evo|V,S,M||1 action|120 feet|Concentration, up to 1 minute|A wall of fire burns creatures on one side of it and inside it.
Wall of Force|5|evo|V,S,M||1 action|120 feet|Concentration, up to 10 minutes|An invisible wall of force blocks everything.
Wall of Ice|6|evo|V,S,M||1 action|120 feet|Concentration, up to 10 minutes|A wall of ice blocks the way and chills creatures.
Wall of Stone|5|evo|V,S,M||1 action|120 feet|Concentration, up to 10 minutes|A wall of stone rises, and stays if you concentrate for the whole time.
Wall of Thorns|6|con|V,S,M||1 action|120 feet|Concentration, up to 10 minutes|A wall of tangled brush bristles with needle-sharp thorns.
Warding Bond|2|abj|V,S,M||1 action|Touch|1 hour|A creature gains protection while you share the damage it takes.
Water Breathing|3|trs|V,S,M|R|1 action|30 feet|24 hours|Up to ten creatures can breathe underwater.
Water Walk|3|trs|V,S,M|R|1 action|30 feet|1 hour|Up to ten creatures can walk on liquid surfaces.
Web|2|con|V,S,M||1 action|60 feet|Concentration, up to 1 hour|Sticky webs restrain creatures in an area.
Weird|9|ill|V,S||1 action|120 feet|Concentration, up to 1 minute|Illusions of deepest fears frighten and damage many creatures.
Wind Walk|6|trs|V,S,M||1 minute|30 feet|8 hours|You and your companions turn to cloud and travel swiftly.
Wind Wall|3|evo|V,S,M||1 action|120 feet|Concentration, up to 1 minute|A wall of strong wind blocks missiles, gas and flying creatures.
Wish|9|con|V||1 action|Self|Instantaneous|Duplicates any spell of 8th level or lower, or alters reality.
Word of Recall|6|con|V||1 action|5 feet|Instantaneous|Returns you and your companions to a sanctuary you prepared.
Zone of Truth|2|enc|V,S||1 action|60 feet|10 minutes|Creatures in a sphere cannot deliberately lie.
`;
