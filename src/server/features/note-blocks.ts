/**
 * Note blocks as vanilla 1.21 (`NoteBlock`; Minecraft wiki "Note Block"):
 * - using one (a right click; `useWithoutItem`) tunes it a semitone up (`note` 0–24, then back
 *   to 0) and plays it; a survival player starting to dig it (`attack`) plays it untuned;
 * - playing: when the block above is air (or the instrument is a mob head's), a block event
 *   (`block_action` 0 0, which mineflayer reports as `noteHeard`) goes to the players within 64
 *   blocks (`ServerLevel.runBlockEvents`), and the instrument's sound
 *   (`block.note_block.<instrument>`, mob heads `block.note_block.imitate.<mob>`) plays in the
 *   `record` category at volume 3 (heard within 48 blocks), pitch 2^((note − 12) / 12) for a
 *   tunable instrument, else 1 (`triggerEvent`, `getPitchFromNote`).
 *
 * flying-squid's own note blocks looked for the block id 25 of 1.8 and never played. Not
 * simulated: the instrument chosen by the block below (a placed note block stays a harp unless
 * set otherwise), redstone.
 */
import { Vec3 } from 'vec3';
import type { Block } from 'prismarine-block';
import type { SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import { blockAt, isAir, withProperties } from '../services/blocks.ts';

/** Highest `note` (vanilla `NoteBlock.NOTE`: 0–24, two octaves). */
const MAX_NOTE = 24;
/** Block event id of a note (vanilla `level.blockEvent(pos, this, 0, 0)`). */
const NOTE_EVENT = 0;
/** Block events reach players within this many blocks (vanilla `ServerLevel.runBlockEvents`). */
const BLOCK_EVENT_RANGE = 64;
/** vanilla `triggerEvent`: volume 3, heard within 16 × 3 blocks. */
const NOTE_VOLUME = 3;
const NOTE_RANGE = 48;
/** Instruments of mob heads (vanilla `NoteBlockInstrument`, `worksAboveNoteBlock` and not tunable). */
const HEAD_INSTRUMENTS = new Set(['zombie', 'skeleton', 'creeper', 'dragon', 'wither_skeleton', 'piglin', 'custom_head']);

/** vanilla `NoteBlock.getPitchFromNote`. */
export function notePitch(note: number): number {
  return Math.pow(2, (note - 12) / 12);
}

/** Plays the note of the note block `block` (vanilla `playNote`, then `triggerEvent`). */
async function playNote(serv: SquidServer, world: SquidWorld, position: Vec3, block: Block): Promise<void> {
  const properties = block.getProperties() as { instrument?: string; note?: number };
  const instrument = String(properties.instrument ?? 'harp');
  const head = HEAD_INSTRUMENTS.has(instrument);
  if (!head && !isAir((await blockAt(world, position.offset(0, 1, 0))).name)) return;
  const centre = position.offset(0.5, 0.5, 0.5);
  const blockId = serv.registry.blocksByName.note_block!.id;
  serv._writeArray(
    'block_action',
    { location: { x: position.x, y: position.y, z: position.z }, byte1: NOTE_EVENT, byte2: 0, blockId },
    serv.players.filter((p) => p.world === world && p.position.distanceTo(centre) <= BLOCK_EVENT_RANGE),
  );
  if (instrument === 'custom_head') return; // the sound a player head names: not simulated
  const sound = head ? `block.note_block.imitate.${instrument}` : `block.note_block.${instrument}`;
  serv.playSound?.(sound, world, centre, {
    radius: NOTE_RANGE,
    volume: NOTE_VOLUME,
    pitch: head ? 1 : notePitch(Number(properties.note ?? 0)),
    soundCategory: 'record',
  });
}

/** Tunes a used note block a semitone up and plays it (vanilla `useWithoutItem`). */
async function tune(serv: SquidServer, player: SquidPlayer, block: Block & { position: Vec3 }): Promise<void> {
  const note = Number((block.getProperties() as { note?: number }).note ?? 0);
  const position = block.position;
  await serv.setBlock(player.world, position, withProperties(serv, block, { note: note >= MAX_NOTE ? 0 : note + 1 }));
  await playNote(serv, player.world, position, await blockAt(player.world, position));
}

/** Installs note blocks on a started server. */
export function installNoteBlocks(serv: SquidServer): void {
  serv.onBlockInteraction('note_block', async ({ block, player }) => {
    await tune(serv, player, block);
    return true;
  });
  serv.on('blockAttacked', ({ player, position, block }) => {
    if (block.name !== 'note_block') return;
    playNote(serv, player.world, new Vec3(position.x, position.y, position.z), block).catch((err: unknown) => serv.emit('error', err));
  });
}
