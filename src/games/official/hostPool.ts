/**
 * A pool of game hosts. A new play goes to the host with the fewest plays and stays there (its game
 * lives in that process). A host that ends is replaced at once, so the plays after it have somewhere
 * to go; the plays it held fail with why.
 */
import { availableParallelism } from 'node:os';
import { GameHost, type GameHostOptions } from './gameHost.ts';

export class GameHostPool {
  readonly size: number;
  private readonly hosts: GameHost[] = [];
  private closed = false;

  /** `size`: how many hosts; default the machine's cores. */
  constructor(
    private readonly options: GameHostOptions = {},
    size?: number,
  ) {
    this.size = Math.max(1, size ?? availableParallelism());
    for (let i = 0; i < this.size; i++) this.hosts.push(this.startHost());
  }

  /** Settles when every host can play; rejects with the first's reason (arcengine missing) otherwise. */
  async ready(): Promise<void> {
    await Promise.all(this.hosts.map((host) => host.ready));
  }

  /** The host a new play goes to. */
  host(): GameHost {
    let best = this.hosts[0]!;
    for (const host of this.hosts) if (host.plays < best.plays) best = host;
    return best;
  }

  /** Ends every host. */
  close(): void {
    this.closed = true;
    for (const host of this.hosts) host.close();
  }

  private startHost(): GameHost {
    return new GameHost(this.options, (ended) => this.replace(ended));
  }

  private replace(ended: GameHost): void {
    const index = this.hosts.indexOf(ended);
    if (this.closed || index < 0 || !ended.playable) return;
    this.hosts[index] = this.startHost();
  }
}
