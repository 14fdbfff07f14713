/**
 * Entity fixes for flying-squid 1.12: the real `player` entity type in spawn packets, names for
 * objects (so `@e[type=item]` works), the tab list on join and leave, working respawn after
 * death, initial food saturation, and no empty `entity_destroy` packets.
 */
import type { SquidEntity, SquidPlayer, SquidServer } from '../types.ts';
import { containerFields, dig, packetFields, sharedType, toClientType } from '../services/protocol.ts';

/** Vanilla health, food and saturation after (re)spawning (Minecraft wiki "Hunger"). */
const FULL_HEALTH = 20;
const FULL_FOOD = 20;
const INITIAL_SATURATION = 5;
/** `previousGamemode` value meaning "none" in the respawn packet. */
const NO_PREVIOUS_GAME_MODE = 255;

/** Installs every fix in this module; must run before any player joins. */
export function installPlayerFixes(serv: SquidServer): void {
  installEntityTypes(serv);
  // flying-squid re-assigns these server functions on every join, so they are re-replaced each time.
  const sendPlayerList = playerListSender(serv);
  const sendPlayerLeave = playerLeaveSender(serv);
  const listed = trackListedPlayers(serv);
  serv.on('newPlayer', () => {
    const send = sendPlayerList ?? serv._sendPlayerList?.bind(serv);
    serv._sendPlayerList = (newcomer) => {
      send?.(newcomer);
      listed.add(newcomer);
    };
    if (sendPlayerLeave) serv._sendPlayerEventLeave = sendPlayerLeave;
  });
  installRespawn(serv);
  installFoodSaturation(serv);
  installNoEmptyDestroy(serv);
}

/**
 * flying-squid's `updateAndSpawn` writes `entity_destroy` on every re-tracking, also with no
 * entity to remove; vanilla never sends an empty one. Skip those.
 */
function installNoEmptyDestroy(serv: SquidServer): void {
  serv.on('newPlayer', (player) => {
    const withDespawn = player as SquidPlayer & { despawnEntities?(entities: unknown[]): void };
    const despawn = withDespawn.despawnEntities?.bind(player);
    if (!despawn) return;
    withDespawn.despawnEntities = (entities: unknown[]) => {
      if (entities.length > 0) despawn(entities);
    };
  });
}

/**
 * flying-squid creates players with `entityType = null`, which the spawn packet sends as type 0
 * (`allay` on 1.21.1): use minecraft-data's `player` entity id instead. Its `spawnObject` names
 * every object 'unknown' (minecraft-data 1.21 has no `objects`), after `newEntity` has fired: the
 * object gets its minecraft-data name (`item`, `arrow`, ...) once spawned, so selectors such as
 * `@e[type=item]` find it.
 */
function installEntityTypes(serv: SquidServer): void {
  const playerTypeId = serv.registry.entitiesByName.player!.id;
  serv.on('newEntity', (entity) => {
    if (entity.type === 'player') entity.entityType = playerTypeId;
  });
  const spawnObject = serv.spawnObject;
  serv.spawnObject = (type, world, position, options) => {
    const entity = spawnObject(type, world, position, options);
    if (entity.name === undefined || entity.name === 'unknown') entity.name = serv.registry.entities[type]?.name ?? entity.name;
    return entity;
  };
}

/**
 * A joining player is tracked (spawned to the others, and they to it) only once it has its tab
 * list, as in vanilla, where `PlayerList.placeNewPlayer` sends every player's `player_info` before
 * it adds the player to the level and entity tracking starts. flying-squid registers a player's
 * entity when it connects, so another player's `updateAndSpawn` (its own join, a teleport, a walk)
 * spawned itself to a client still logging in: before its `login` packet, which clears a client's
 * entities (mineflayer kept a nameless, typeless entity), or before its `player_info`, so mineflayer
 * never named the player's entity (`bot.players[name].entity` stayed unset). The newcomer's own
 * `updateAndSpawn`, right after its tab list, spawns everything near it.
 *
 * @returns the set of players that have their tab list (entries go with the player).
 */
function trackListedPlayers(serv: SquidServer): WeakSet<SquidEntity> {
  const listed = new WeakSet<SquidEntity>();
  const nearbyEntities = serv.getNearbyEntities.bind(serv);
  serv.getNearbyEntities = (options) => nearbyEntities(options).filter((entity) => entity.type !== 'player' || listed.has(entity));
  return listed;
}

/**
 * On 1.19.3+ (`playerInfoActionIsBitfield`) flying-squid's `_sendPlayerList(newPlayer)` writes the
 * whole tab list to the *other* players and nothing to the new one, so a joining client never
 * learns who is online (itself included): mineflayer's `bot.players` stays empty and player
 * entities have no username. The replacement: the newcomer gets every player, the others get the
 * newcomer. Undefined on versions that need no fix.
 */
function playerListSender(serv: SquidServer): ((newcomer: SquidPlayer) => void) | undefined {
  if (!serv.supportFeature('playerInfoActionIsBitfield')) return undefined;
  // packet_player_info: ['container', [action, { name: 'data', type: ['array', { type: ['container', [fields…]] }] }]]
  const fields = containerFields(dig(toClientType(serv, 'packet_player_info'), 1, 1, 'type', 1, 'type'));
  const listedType = JSON.stringify(fields.find((field) => field.name === 'listed')?.type ?? '');
  const listed = listedType.includes('bool') ? true : 1;
  const action = { add_player: true, update_game_mode: true, update_listed: true, update_latency: true };
  const entry = (player: SquidPlayer) => ({
    uuid: player.uuid,
    player: { name: player.username, properties: player.profileProperties ?? [] },
    gamemode: player.gameMode ?? 0,
    listed,
    latency: player._client.latency ?? 0,
  });
  const sendPlayerList = (newcomer: SquidPlayer): void => {
    const everyone = serv.players.includes(newcomer) ? serv.players : [...serv.players, newcomer];
    newcomer._client.write('player_info', { action, data: everyone.map(entry) });
    for (const other of serv.players) {
      if (other !== newcomer) other._client.write('player_info', { action, data: [entry(newcomer)] });
    }
  };
  return sendPlayerList;
}

/**
 * A player's departure as vanilla 1.19.3+ announces it (`PlayerList.remove`): the entity is
 * removed (`entity_destroy`) for every player whose client has it, then everyone gets `player_remove`
 * with the player's UUID. flying-squid sends `player_info` with a `remove_player` action instead,
 * which the 1.19.3+ bitfield no longer has, so clients (mineflayer: `playerLeft`, `bot.players`)
 * never learned that anyone left.
 *
 * Also drops the player from every other entity's `nearbyEntities`: flying-squid left it there,
 * so the next move of a former neighbour sent a second `entity_destroy` for it. Undefined before
 * 1.19.3 (no `player_remove` packet; flying-squid's legacy `player_info` removal works there).
 */
function playerLeaveSender(serv: SquidServer): ((leaving: SquidPlayer) => void) | undefined {
  if (toClientType(serv, 'packet_player_remove') === undefined) return undefined;
  return (leaving: SquidPlayer): void => {
    const others = serv.players.filter((p) => p !== leaving);
    // A player's own `nearbyEntities` lists the entities spawned on its client.
    const seenBy = others.filter((p) => p.nearbyEntities?.includes(leaving));
    for (const other of seenBy) other._client.write('entity_destroy', { entityIds: [leaving.id] });
    for (const entity of Object.values(serv.entities)) {
      if (entity !== leaving && Array.isArray(entity.nearbyEntities))
        entity.nearbyEntities = entity.nearbyEntities.filter((e) => e !== leaving);
    }
    // flying-squid's logout then despawns the player for the leaver's own `nearbyPlayers()`, a list
    // that can name players who no longer see it: emptied, as the despawn was done just above.
    leaving.nearbyEntities = [];
    for (const other of others) other._client.write('player_remove', { players: [leaving.uuid] });
  };
}

/** flying-squid never sets saturation, so clients read NaN: start at vanilla's 5. */
function installFoodSaturation(serv: SquidServer): void {
  serv.on('newPlayer', (player) => {
    if (!Number.isFinite(player.foodSaturation)) player.foodSaturation = INITIAL_SATURATION;
  });
}

/** The respawn packet's game-mode mapping (`SpawnInfo.gamemode`) from the protocol definition. */
function gameModeNames(serv: SquidServer): Record<string, string> {
  const spawnInfo = containerFields(sharedType(serv, 'SpawnInfo') ?? toClientType(serv, 'SpawnInfo'));
  const mappings = dig(spawnInfo.find((f) => f.name === 'gamemode')?.type, 1, 'mappings');
  return mappings && typeof mappings === 'object' ? (mappings as Record<string, string>) : {};
}

/**
 * Respawn, fixed for 1.20.5+:
 * - the client's request arrives as `client_command { actionId: 'perform_respawn' }` (the mapped
 *   name), which flying-squid compares with `0`, so it never respawned anyone;
 * - the `respawn` packet moved its fields into `worldState` (`SpawnInfo`).
 * On request a dead player gets the respawn packet, is moved to their spawn point with chunks, and
 * is restored to full health and food (vanilla `ServerPlayer.respawn`). `player._sendRespawn` is
 * replaced too, so `changeWorld` uses the right shape.
 */
function installRespawn(serv: SquidServer): void {
  const usesWorldState = packetFields(serv, 'respawn').some((field) => field.name === 'worldState');
  const modeNames = gameModeNames(serv);

  serv.on('newPlayer', (player) => {
    if (usesWorldState) {
      player._sendRespawn = (difficulty?: number, gameMode?: number, dimension?: number): void => {
        const base = (dig(serv.registry.loginPacket, 'worldState') ?? {}) as { name?: string; hashedSeed?: unknown };
        const mode = gameMode ?? player.gameMode ?? 0;
        player._client.write('respawn', {
          worldState: {
            ...base,
            name: serv.dimensionNames?.[dimension ?? 0] ?? base.name,
            hashedSeed: serv.hashedSeed ?? base.hashedSeed,
            gamemode: modeNames[String(mode)] ?? mode,
            previousGamemode: player.prevGameMode ?? NO_PREVIOUS_GAME_MODE,
            isDebug: false,
            death: undefined,
            portalCooldown: 0,
          },
          copyMetadata: 0,
        });
        void difficulty; // sent separately (`difficulty` packet) since 1.14
      };
    }

    // Replace flying-squid's handler (it never matches the mapped action name).
    player._client.removeAllListeners('client_command');
    player._client.on('client_command', (data: { actionId?: number | string; payload?: number }) => {
      const action = data.actionId ?? data.payload;
      if (action !== 0 && action !== 'perform_respawn') return; // e.g. 'request_stats'
      if (player.health > 0) return; // vanilla ignores respawn requests from the living
      respawnPlayer(serv, player).catch((err: unknown) => serv.debug?.(`respawn failed: ${String(err)}`));
    });
  });
}

async function respawnPlayer(serv: SquidServer, player: SquidPlayer): Promise<void> {
  await player.behavior('requestRespawn', {}, async () => {
    player._sendRespawn();
    player.nearbyEntities = []; // the client dropped every entity it knew
    player.foodSaturation = INITIAL_SATURATION;
    player.food = FULL_FOOD;
    const spawnPoint = player.spawnPoint ?? player.position;
    await player.teleport(spawnPoint.clone());
    player.updateHealth(FULL_HEALTH);
    player.updateAndSpawn();
    serv.emit('playerRespawned', player);
  });
}
