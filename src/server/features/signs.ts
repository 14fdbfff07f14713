/**
 * Sign text for the embedded server, as vanilla 1.21 (`ServerGamePacketListenerImpl.handleSignUpdate`,
 * `SignBlockEntity`): an `update_sign` packet (mineflayer `bot.updateSign`) from a player within
 * reach of a sign sets its front or back text; the text is kept in the block-entity store
 * (./block-entities.ts, so it is saved with the world) and sent to every player in the world as
 * `tile_entity_data` (sign block-entity NBT: `front_text` / `back_text` with four JSON text
 * `messages`), so their `blockAt(pos).signText` shows it. A player gets the texts of the signs
 * in each chunk right after that chunk (vanilla sends them inside the chunk packet), so the signs
 * of a loaded world show at once. Breaking the sign forgets its text.
 *
 * Placing a sign (every wood: a standing sign with its rotation on top of a block, a wall sign
 * facing away from the clicked side) opens its editor on the placer's client once the block is
 * there (vanilla `SignItem` → `open_sign_entity`), as flying-squid did only for six woods and
 * before the block existed.
 */
import { createRequire } from 'node:module';
import type { SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import { blockEntities, type BlockEntity } from '../services/block-entities.ts';
import { blockAt, placedState } from '../services/blocks.ts';
import { textComponentsInNbtAreJson } from '../services/protocol.ts';
import type { Position } from '../services/geometry.ts';

const require = createRequire(import.meta.url);
const nbt = require('prismarine-nbt') as {
  comp(value: Record<string, unknown>): unknown;
  list(value: unknown): unknown;
  string(value: string | string[]): unknown;
  byte(value: number): unknown;
};

/** vanilla: a player may edit a sign within this distance of its centre (blocks, with slack). */
const EDIT_REACH = 8;
/** Lines on each side of a sign. */
const LINES = 4;
/** Block-entity type ids (protocol, `tile_entity_data.action`) of standing/wall and hanging signs. */
const SIGN_TYPE = 7;
const HANGING_SIGN_TYPE = 8;
/** Wall-sign facing by clicked face (protocol direction 2–5). */
const WALL_FACING = ['north', 'south', 'west', 'east'];

/** Whether a block name is a sign (standing, wall or hanging). */
export function isSignBlock(name: string): boolean {
  return name.endsWith('_sign');
}

/** One line from an `update_sign` packet as plain text: JSON text (`"\"Hi\""`, `{"text":"Hi"}`) or raw. */
export function signLine(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'string') return parsed;
    if (parsed && typeof parsed === 'object' && typeof (parsed as { text?: unknown }).text === 'string')
      return (parsed as { text: string }).text;
  } catch {
    /* not JSON: plain text */
  }
  return raw;
}

/**
 * The `tile_entity_data` packet that shows a sign's text. Each line is a text component: a JSON
 * string before 1.21.5, the component itself as NBT since (plain text: a string tag; Minecraft
 * wiki "Java Edition 1.21.5": text components in NBT are no longer stored as JSON).
 */
export function signPacket(serv: SquidServer, entity: BlockEntity): { location: Position; action: number; nbtData: unknown } {
  const json = textComponentsInNbtAreJson(serv);
  const line = (text: string) => (json ? JSON.stringify({ text }) : text);
  const side = (lines: string[] | undefined) =>
    nbt.comp({
      messages: nbt.list(nbt.string(Array.from({ length: LINES }, (_, i) => line(lines?.[i] ?? '')))),
      color: nbt.string('black'),
      has_glowing_text: nbt.byte(0),
    });
  return {
    location: entity.pos,
    action: entity.kind.endsWith('_hanging_sign') ? HANGING_SIGN_TYPE : SIGN_TYPE,
    nbtData: nbt.comp({ front_text: side(entity.text?.front), back_text: side(entity.text?.back), is_waxed: nbt.byte(0) }),
  };
}

function playersIn(serv: SquidServer, world: SquidWorld): SquidPlayer[] {
  return serv.players.filter((p) => p.world === world && !p.disconnected);
}

/**
 * Sets one side of the sign at `pos` and shows it to every player in the world.
 *
 * @returns false when there is no sign at `pos`.
 */
export async function setSignText(
  serv: SquidServer,
  world: SquidWorld,
  pos: Position,
  lines: string[],
  side: 'front' | 'back' = 'front',
): Promise<boolean> {
  const block = await blockAt(world, pos);
  if (!block || !isSignBlock(block.name)) return false;
  const store = blockEntities(serv);
  const entity = store.getOrCreate(world, pos, block.name, 0);
  entity.text = { front: entity.text?.front ?? [], back: entity.text?.back ?? [], [side]: lines.slice(0, LINES) };
  store.markDirty();
  const packet = signPacket(serv, entity);
  for (const p of playersIn(serv, world)) p._client.write('tile_entity_data', packet);
  return true;
}

/** Installs sign editing, syncing and forgetting on a started server. */
export function installSigns(serv: SquidServer): void {
  const store = blockEntities(serv);
  serv.on('newPlayer', (player) => {
    player._client.on(
      'update_sign',
      (packet: { location: Position; isFrontText?: boolean; text1?: string; text2?: string; text3?: string; text4?: string }) => {
        const { location } = packet;
        const centre = { x: location.x + 0.5, y: location.y + 0.5, z: location.z + 0.5 };
        if (Math.hypot(player.position.x - centre.x, player.position.y - centre.y, player.position.z - centre.z) > EDIT_REACH) return;
        const lines = [packet.text1, packet.text2, packet.text3, packet.text4].map(signLine);
        void setSignText(serv, player.world, location, lines, packet.isFrontText === false ? 'back' : 'front').catch((err: unknown) =>
          serv.emit('error', err),
        );
      },
    );
    const sendChunk = player.sendChunk.bind(player);
    player.sendChunk = async (chunkX: number, chunkZ: number, column: unknown): Promise<void> => {
      await sendChunk(chunkX, chunkZ, column);
      if (player.disconnected) return;
      const dimension = store.dimensionOf(player.world);
      for (const entity of store.all()) {
        if (
          entity.text &&
          entity.dimension === dimension &&
          Math.floor(entity.pos.x / 16) === chunkX &&
          Math.floor(entity.pos.z / 16) === chunkZ
        ) {
          player._client.write('tile_entity_data', signPacket(serv, entity));
        }
      }
    };
  });
  for (const item of serv.registry.itemsArray) {
    if (!item.name.endsWith('_sign') || item.name.endsWith('_hanging_sign')) continue;
    const standing = item.name;
    const wall = standing.replace(/_sign$/, '_wall_sign');
    if (!serv.registry.blocksByName[standing] || !serv.registry.blocksByName[wall]) continue;
    serv.onItemPlace(
      standing,
      ({ direction, properties }) => {
        if (direction === 0) return {}; // no sign under a ceiling (that is a hanging sign)
        if (direction === 1)
          return placedState(serv, standing, { rotation: Number(properties.rotation ?? 0), waterlogged: properties.waterlogged === true });
        return placedState(serv, wall, { facing: WALL_FACING[direction - 2]!, waterlogged: properties.waterlogged === true });
      },
      false,
    );
  }
  serv.on('blockPlaced', ({ player, position, name }) => {
    if (isSignBlock(name) && !player.disconnected) player._client.write('open_sign_entity', { location: position, isFrontText: true });
  });
  serv.on('blockBroken', ({ player, position, block }) => {
    if (isSignBlock(block.name)) store.remove(player.world, position);
  });
}
