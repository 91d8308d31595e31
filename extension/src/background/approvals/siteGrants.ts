/**
 * "Allow on this site", remembered: the sites each agent (by its client's name) or every agent
 * (`*`) may act on without being asked in `per-site` mode. In storage.local, so grants outlive
 * the browser session (an isolated launch's context keeps them in its own memory, so a grant
 * made in one isolated session applies in no other: shared/storageAreas.ts); listed in the side panel, where each can be revoked. A grant never
 * covers a sensitive site or a site an admin blocked (permissionGate.ts).
 */
import { siteOrigin } from '@browser-agent/protocol';
import type { SiteGrant } from '../../shared/messages';
import { localArea } from '../../shared/storageAreas';

const KEY = 'siteGrants';
/** Enough for any person's list; the oldest go first beyond it. */
const MAX_GRANTS = 500;

export const EVERY_AGENT = '*';

export class SiteGrants {
  #cached: Promise<SiteGrant[]> | undefined;
  readonly #changed: () => void;

  constructor(changed: () => void) {
    this.#changed = changed;
  }

  all(): Promise<SiteGrant[]> {
    this.#cached ??= localArea()
      .get(KEY)
      .then(
        (items) => (Array.isArray(items[KEY]) ? (items[KEY] as SiteGrant[]) : []),
        () => [],
      );
    return this.#cached;
  }

  async has(client: string, site: string): Promise<boolean> {
    return (await this.all()).some(
      (g) => g.site === site && (g.client === client || g.client === EVERY_AGENT),
    );
  }

  async add(site: string, client: string): Promise<void> {
    const grants = (await this.all()).filter((g) => !(g.site === site && g.client === client));
    grants.push({ site, client, grantedAt: Date.now() });
    await this.#save(grants.slice(-MAX_GRANTS));
  }

  async revoke(site: string, client: string): Promise<void> {
    await this.#save((await this.all()).filter((g) => !(g.site === site && g.client === client)));
  }

  async #save(grants: SiteGrant[]): Promise<void> {
    this.#cached = Promise.resolve(grants);
    await localArea().set({ [KEY]: grants });
    this.#changed();
  }
}

/**
 * The origin a grant names, in the one spelling of every site list (siteOrigin: `SHOP.test.`
 * and `shop.test` are one site): http(s) only; anything else (about:blank, data:) is no site.
 */
export function siteOf(url: string | undefined): string | undefined {
  return url === undefined ? undefined : siteOrigin(url);
}
