/**
 * How many may join, as vanilla decides it, and a server that outlives any one login.
 *
 * - `max-players` is enforced at login: a client logging in while the server holds `max-players`
 *   players gets vanilla's login disconnect `multiplayer.disconnect.server_full` ("The server is
 *   full!"), as `PlayerList.canPlayerLogin` answers (nobody bypasses the limit here: vanilla's
 *   bypass is an ops.json flag). Clients still in configuration count, so a burst of logins cannot
 *   overshoot the limit.
 * - Players do not count against the entity cap (`max-entities`, for mobs and items): flying-squid
 *   1.12 counts every entity, players included, and throws "Too many mobs !" from `initEntity` for
 *   the next player, from its login handler, which rethrows it from a timer: the process exits and
 *   every player on it is dropped.
 * - A player whose login fails (an error in flying-squid's `player.login`) is disconnected and the
 *   error logged, instead of being rethrown from a timer and ending the process.
 */
import type { ProtocolClient, SquidServer } from '../types.ts';

/** Vanilla's translation key of the login refusal of a full server ("The server is full!"). */
export const SERVER_FULL = 'multiplayer.disconnect.server_full';

/** Installs the player limit, the entity cap without players, and the login guard. */
export function installPlayerLimits(serv: SquidServer): void {
  enforceMaxPlayers(serv);
  entityCapWithoutPlayers(serv);
  guardLogin(serv);
}

/**
 * Refuses a login (`login_start`) while `playerCount` (clients past login, minecraft-protocol's
 * count) has reached `maxPlayers`. minecraft-protocol's own login listener runs only for the
 * clients let in.
 */
function enforceMaxPlayers(serv: SquidServer): void {
  const protocol = serv._server;
  protocol.on('connection', (client: ProtocolClient) => {
    // minecraft-protocol's login plugin registered its listener when the connection opened, before this one.
    const login = client.rawListeners('login_start');
    client.removeAllListeners('login_start');
    client.once('login_start', (packet: unknown) => {
      if (protocol.playerCount >= protocol.maxPlayers) {
        serv.info(`${String((packet as { username?: string }).username)} was refused: the server is full (${protocol.maxPlayers} players)`);
        client.end(SERVER_FULL, JSON.stringify({ translate: SERVER_FULL }));
        return;
      }
      for (const listener of login) listener.call(client, packet);
    });
  });
}

/**
 * flying-squid checks `Object.keys(serv.entities).length > options['max-entities']` in
 * `initEntity` (and before `/summon`): the setting becomes a live value, such that at most
 * `max-entities` other entities exist besides the players, and no limit while a player entity is
 * made.
 */
function entityCapWithoutPlayers(serv: SquidServer): void {
  const options = serv._server.options;
  const cap = Number(options['max-entities']);
  if (!Number.isFinite(cap)) return;
  let makingPlayer = false;
  const players = (): number => {
    let n = 0;
    for (const id in serv.entities) if (serv.entities[id]!.type === 'player') n++;
    return n;
  };
  Object.defineProperty(options, 'max-entities', {
    configurable: true,
    enumerable: true,
    // flying-squid refuses when the count is above the value, before adding the new entity.
    get: () => (makingPlayer ? Infinity : cap - 1 + players()),
  });
  const initEntity = serv.initEntity.bind(serv);
  serv.initEntity = (type, entityType, world, position) => {
    if (type !== 'player') return initEntity(type, entityType, world, position);
    makingPlayer = true;
    try {
      return initEntity(type, entityType, world, position);
    } finally {
      makingPlayer = false;
    }
  };
}

/** Ends the connection of a player whose login throws, and logs why, rather than letting flying-squid rethrow it. */
function guardLogin(serv: SquidServer): void {
  serv.on('newPlayer', (player) => {
    const login = player.login.bind(player);
    player.login = async () => {
      try {
        await login();
      } catch (err) {
        serv.err(`The login of ${player._client.username ?? 'a player'} failed: ${(err as Error).stack ?? String(err)}`);
        player._client.end('The server could not log you in; see its log');
      }
    };
  });
}
