/** Bots of one process talk directly, with no chat traffic. */
import type { BotMessage, Transport } from './types.ts';

/** Connects the bots of one process. Each bot gets its own endpoint with {@link endpoint}. */
export class InProcessHub {
  readonly #endpoints = new Map<string, InProcessEndpoint>();

  /** Names registered in the hub. */
  names(): string[] {
    return [...this.#endpoints.keys()];
  }

  /**
   * Creates (and registers) `name`'s endpoint.
   *
   * @throws Error when `name` already has an open endpoint.
   */
  endpoint(name: string): Transport {
    if (this.#endpoints.has(name)) throw new Error(`${name} is already connected to this hub`);
    const endpoint = new InProcessEndpoint(name, this);
    this.#endpoints.set(name, endpoint);
    this.#changed();
    return endpoint;
  }

  /** @internal */
  get(name: string): InProcessEndpoint | undefined {
    return this.#endpoints.get(name);
  }

  /** @internal */
  remove(endpoint: InProcessEndpoint): void {
    if (this.#endpoints.get(endpoint.name) === endpoint) this.#endpoints.delete(endpoint.name);
    this.#changed();
  }

  #changed(): void {
    for (const e of this.#endpoints.values()) e.peersChanged();
  }
}

class InProcessEndpoint implements Transport {
  readonly kind = 'in-process';
  readonly name: string;
  readonly #hub: InProcessHub;
  #handler: ((message: BotMessage) => void) | undefined;
  #onPeers: (() => void) | undefined;
  #closed = false;

  constructor(name: string, hub: InProcessHub) {
    this.name = name;
    this.#hub = hub;
  }

  peers(): string[] {
    return this.#closed ? [] : this.#hub.names().filter((n) => n !== this.name);
  }

  isPeer(name: string): boolean {
    return !this.#closed && name !== this.name && this.#hub.get(name) !== undefined;
  }

  send(message: BotMessage): void {
    const target = this.#closed ? undefined : this.#hub.get(message.to);
    if (!target || message.to === this.name)
      throw new Error(`${message.to} is not one of our bots (bots: ${this.peers().join(', ') || 'none'}).`);
    // The hub, not the message, says who sent it.
    const copy: BotMessage = { ...message, from: this.name };
    // Deliver on a later turn of the event loop, like a network would, so the two sides never re-enter each other.
    setImmediate(() => target.deliver(copy));
  }

  listen(handler: (message: BotMessage) => void): void {
    this.#handler = handler;
  }

  onPeersChanged(handler: () => void): void {
    this.#onPeers = handler;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#hub.remove(this);
  }

  deliver(message: BotMessage): void {
    if (!this.#closed) this.#handler?.(message);
  }

  peersChanged(): void {
    if (!this.#closed) this.#onPeers?.();
  }
}

/**
 * Prefers `local` (bots of this process) and reaches every other bot through `remote`. A message
 * counts only when it arrives on the transport its sender belongs to.
 */
export class CompositeTransport implements Transport {
  readonly kind: string;
  readonly #local: Transport;
  readonly #remote: Transport;

  constructor(local: Transport, remote: Transport) {
    this.#local = local;
    this.#remote = remote;
    this.kind = `${local.kind}+${remote.kind}`;
  }

  peers(): string[] {
    return [...new Set([...this.#local.peers(), ...this.#remote.peers()])];
  }

  isPeer(name: string): boolean {
    return this.#local.isPeer(name) || this.#remote.isPeer(name);
  }

  send(message: BotMessage): void {
    if (this.#local.isPeer(message.to)) this.#local.send(message);
    else this.#remote.send(message);
  }

  listen(handler: (message: BotMessage) => void): void {
    this.#local.listen(handler);
    // A local bot never whispers: a whisper claiming a local name is not trusted.
    this.#remote.listen((m) => {
      if (!this.#local.isPeer(m.from)) handler(m);
    });
  }

  onPeersChanged(handler: () => void): void {
    this.#local.onPeersChanged(handler);
    this.#remote.onPeersChanged(handler);
  }

  close(): void {
    this.#local.close();
    this.#remote.close();
  }
}
