/**
 * Sounds and particles as vanilla 1.21 sends them (Minecraft wiki "Commands/playsound",
 * "Commands/particle"):
 * - `serv.playSound` (flying-squid's, used by its own plugins) writes a well-formed `sound_effect`
 *   packet: the sound by registry id, the category by name, the position in 1/8 blocks, pitch and
 *   volume as floats (flying-squid sent an inline sound without its marker byte, a numeric
 *   category and pitch × 63, which clients could not read);
 * - `/playsound <sound> <source> <targets> [<pos>] [<volume>] [<pitch>] [<minVolume>]`, vanilla's
 *   argument order, audible within `max(volume, 1) × 16` blocks, or at `minVolume` from nearby;
 * - `/particle <name> [<pos>] [<delta> <speed> <count> [force|normal] [<viewers>]]` for particles
 *   without options and the block ones (`block <state>`), shown within 32 blocks (512 with
 *   `force`).
 */
import { Vec3 } from 'vec3';
import type { CommandContext, SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import {
  callerPosition,
  callerWorld,
  commandAction,
  CommandError,
  isCoordinate,
  parseBlockArgument,
  parseLocation,
  usageError,
} from '../services/command-arguments.ts';
import { dig, sharedType } from '../services/protocol.ts';
import { displayName, resolvePlayers } from '../services/selectors.ts';
import { sendFeedback, translatable } from '../services/text.ts';

/** Sound categories in protocol order (vanilla `SoundSource`). */
export const SOUND_SOURCES = ['master', 'music', 'record', 'weather', 'block', 'hostile', 'neutral', 'player', 'ambient', 'voice'] as const;
/** Particles are sent to players within this many blocks (vanilla `ServerLevel.sendParticles`), 512 when forced. */
const PARTICLE_RANGE = 32;
const FORCED_PARTICLE_RANGE = 512;
/** Particles whose option is a block state. */
const BLOCK_PARTICLES = new Set(['block', 'block_marker', 'falling_dust', 'dust_pillar', 'block_crumble']);

/**
 * The sound's id in the version's `sound_event` registry, or undefined for a sound it does not
 * have. minecraft-data numbers 1.19.2+ sounds from 1 (registry id + 1; minecraft-data-generator
 * PR #91), so the registry id is one less.
 */
function soundRegistryId(serv: SquidServer, sound: string): number | undefined {
  const byName = (serv.registry as unknown as { soundsByName?: Record<string, { id: number }> }).soundsByName;
  const info = byName?.[sound.replace(/^minecraft:/, '')];
  return info === undefined ? undefined : info.id - 1;
}

/**
 * Writes one `sound_effect` to a player, the sound by registry id as vanilla sends it (the wire
 * carries id + 1; node-minecraft-protocol adds the 1). Sounds outside the registry are not sent:
 * node-minecraft-protocol cannot encode an inline sound event (it skips the 0 marker byte).
 */
export function writeSound(
  serv: SquidServer,
  player: SquidPlayer,
  sound: string,
  source: string,
  position: Vec3,
  volume: number,
  pitch: number,
): void {
  const soundId = soundRegistryId(serv, sound);
  if (player.disconnected || soundId === undefined) return;
  player._client.write('sound_effect', {
    sound: { soundId },
    soundCategory: source,
    x: Math.floor(position.x * 8),
    y: Math.floor(position.y * 8),
    z: Math.floor(position.z * 8),
    volume,
    pitch,
    seed: [0, Math.floor(Math.random() * 2 ** 31)],
  });
}

/** The particle names of this version's protocol (the `Particle` type's mapper). */
function particleNames(serv: SquidServer): Set<string> {
  const mappings = dig(sharedType(serv, 'Particle'), 1, 0, 'type', 1, 'mappings');
  return new Set(Object.values((mappings ?? {}) as Record<string, string>));
}

/** Installs the `serv.playSound` fix, `/playsound` and `/particle`. */
export function installSoundsParticles(serv: SquidServer): void {
  const withSound = serv as SquidServer & {
    playSound: unknown;
    getNearby(o: { world: SquidWorld; position: Vec3; radius: number }): SquidPlayer[];
  };
  withSound.playSound = (
    sound: string,
    world: SquidWorld,
    position: Vec3 | null,
    options: {
      whitelist?: SquidPlayer | SquidPlayer[];
      blacklist?: SquidPlayer[];
      radius?: number;
      volume?: number;
      pitch?: number;
      soundCategory?: number | string;
    } = {},
  ) => {
    const { blacklist = [], radius = 32, volume = 1, pitch = 1, soundCategory = 0 } = options;
    const players =
      options.whitelist !== undefined
        ? Array.isArray(options.whitelist)
          ? options.whitelist
          : [options.whitelist]
        : serv.players.filter((p) => p.world === world && position && p.position.distanceTo(position) <= radius);
    const source = typeof soundCategory === 'number' ? (SOUND_SOURCES[soundCategory] ?? 'master') : soundCategory;
    for (const player of players)
      if (!blacklist.includes(player)) writeSound(serv, player, sound, source, position ?? player.position, volume, pitch);
  };

  serv.commands.add({
    base: 'playsound',
    info: 'Plays a sound',
    usage: '/playsound <sound> <source> <targets> [<x> <y> <z>] [volume] [pitch] [minVolume]',
    op: true,
    action: commandAction(serv, (args, ctx) => runPlaysound(serv, args, ctx)),
  });

  const names = particleNames(serv);
  serv.commands.add({
    base: 'particle',
    info: 'Shows particles',
    usage: '/particle <name> [<x> <y> <z>] [<dx> <dy> <dz> <speed> <count> [force|normal] [viewers]]',
    op: true,
    action: commandAction(serv, (args, ctx) => runParticle(serv, names, args, ctx)),
  });
}

function runPlaysound(serv: SquidServer, args: string[], ctx: CommandContext): void {
  const usage = '/playsound <sound> <source> <targets> [<x> <y> <z>] [volume] [pitch] [minVolume]';
  const [sound, source, selector] = args;
  if (!sound || !source || !selector) throw usageError(usage);
  if (!(SOUND_SOURCES as readonly string[]).includes(source)) throw usageError(usage);
  if (!/^([a-z0-9_.-]+:)?[a-z0-9_./-]+$/.test(sound)) throw new CommandError(translatable('argument.id.invalid'));
  const targets = resolvePlayers(serv, selector, ctx);
  const rest = args.slice(3);
  const position =
    rest.length >= 3 && rest.slice(0, 3).every(isCoordinate) ? parseLocation(rest.splice(0, 3), callerPosition(ctx)) : callerPosition(ctx);
  const number = (token: string | undefined, fallback: number, min: number, max: number): number => {
    if (token === undefined) return fallback;
    const n = Number(token);
    if (!Number.isFinite(n)) throw new CommandError(translatable('parsing.float.invalid', [token]));
    if (n < min) throw new CommandError(translatable('argument.float.low', [min, n]));
    if (n > max) throw new CommandError(translatable('argument.float.big', [max, n]));
    return n;
  };
  const volume = number(rest[0], 1, 0, Number.MAX_VALUE);
  const pitch = number(rest[1], 1, 0, 2);
  const minVolume = number(rest[2], 0, 0, 1);
  const world = callerWorld(serv, ctx);
  // vanilla PlaySoundCommand: heard within (volume > 1 ? volume × 16 : 16) blocks; beyond, at minVolume 2 blocks from the listener.
  const range = volume > 1 ? volume * 16 : 16;
  const heard: SquidPlayer[] = [];
  for (const target of targets) {
    const eyes = target.position.offset(0, 1.62, 0);
    const distance = target.world === world ? eyes.distanceTo(position) : Infinity;
    if (distance <= range) {
      writeSound(serv, target, sound, source, position, volume, pitch);
    } else if (minVolume > 0 && target.world === world) {
      const toward = position.minus(eyes).scaled(2 / distance);
      writeSound(serv, target, sound, source, eyes.plus(toward), minVolume, pitch);
    } else continue;
    heard.push(target);
  }
  if (heard.length === 0) throw new CommandError(translatable('commands.playsound.failed'));
  sendFeedback(
    serv,
    ctx,
    heard.length === 1
      ? translatable('commands.playsound.success.single', [sound, displayName(heard[0]!)])
      : translatable('commands.playsound.success.multiple', [sound, heard.length]),
  );
}

function runParticle(serv: SquidServer, names: Set<string>, args: string[], ctx: CommandContext): void {
  const usage = '/particle <name> [<x> <y> <z>] [<dx> <dy> <dz> <speed> <count> [force|normal] [viewers]]';
  const rest = [...args];
  const nameToken = rest.shift();
  if (!nameToken) throw usageError(usage);
  const name = nameToken.replace(/^minecraft:/, '');
  if (!names.has(name)) throw new CommandError(translatable('particle.notFound', [nameToken]));
  let data: unknown;
  if (BLOCK_PARTICLES.has(name)) {
    const block = rest.shift();
    if (!block) throw usageError(`/particle ${name} <block> …`);
    data = parseBlockArgument(serv, block).stateId;
  } else if (dig(sharedType(serv, 'Particle'), 1, 1, 'type', 1, 'fields', name) !== undefined) {
    throw new CommandError({ text: `Particle ${name} takes options that this server does not support` });
  }
  const position = rest.length >= 3 ? parseLocation(rest.splice(0, 3), callerPosition(ctx)) : callerPosition(ctx);
  let delta = new Vec3(0, 0, 0);
  let speed = 0;
  let count = 0;
  if (rest.length > 0) {
    if (rest.length < 5) throw usageError(usage);
    const [dx, dy, dz, s, c] = rest.splice(0, 5) as [string, string, string, string, string];
    delta = new Vec3(Number(dx), Number(dy), Number(dz));
    speed = Number(s);
    count = Number(c);
    if (![delta.x, delta.y, delta.z, speed].every(Number.isFinite)) throw new CommandError(translatable('parsing.float.expected'));
    if (!Number.isInteger(count) || count < 0) throw new CommandError(translatable('argument.integer.low', [0, count]));
  }
  const mode = rest.shift() ?? 'normal';
  if (mode !== 'normal' && mode !== 'force') throw usageError(usage);
  const viewers = rest[0] ? resolvePlayers(serv, rest[0], ctx) : serv.players;
  const world = callerWorld(serv, ctx);
  const range = mode === 'force' ? FORCED_PARTICLE_RANGE : PARTICLE_RANGE;
  const shown = viewers.filter((p) => !p.disconnected && p.world === world && p.position.distanceTo(position) <= range);
  for (const player of shown) {
    player._client.write('world_particles', {
      longDistance: mode === 'force',
      alwaysShow: mode === 'force',
      x: position.x,
      y: position.y,
      z: position.z,
      offsetX: delta.x,
      offsetY: delta.y,
      offsetZ: delta.z,
      velocityOffset: speed,
      amount: count,
      particle: { type: name, data },
    });
  }
  if (shown.length === 0) throw new CommandError(translatable('commands.particle.failed'));
  sendFeedback(serv, ctx, translatable('commands.particle.success', [nameToken]));
}
