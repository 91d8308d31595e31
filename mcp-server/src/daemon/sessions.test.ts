import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConnection } from './serverConnection.js';
import { SessionRegistry, sessionKeyOf, type Registration } from './sessions.js';

/** The registry only compares connections by identity. */
const conn = (): ServerConnection => ({}) as ServerConnection;
const reg = (r: Partial<Registration>): Registration => ({
  client: { name: 'agent', version: '1' },
  project: undefined,
  sessionKey: undefined,
  policy: undefined,
  transactions: undefined,
  ...r,
});

let registry = new SessionRegistry(0, () => undefined);
afterEach(() => registry.clear());

describe('session keys', () => {
  it('keys a session by the explicit key, else by its project, else not at all', () => {
    expect(sessionKeyOf('k', '/p')).toBe('key:k');
    expect(sessionKeyOf(undefined, '/p')).toBe('project:/p');
    expect(sessionKeyOf(undefined, undefined)).toBeUndefined();
    expect(sessionKeyOf('/p', undefined), 'a key never matches a project').not.toBe(
      sessionKeyOf(undefined, '/p'),
    );
  });

  it('gives a second live client on the same project a fresh session, and resumes only once the holder is gone', () => {
    registry = new SessionRegistry(60_000, () => undefined);
    const holder = conn();
    const first = registry.bind(holder, reg({ project: '/work/p' }));
    const second = registry.bind(conn(), reg({ project: '/work/p' }));
    expect(second.resumed).toBe(false);
    expect(second.session.id).not.toBe(first.session.id);
    expect(first.session.conn, 'the holder keeps its session').toBe(holder);

    registry.release(holder);
    const back = registry.bind(conn(), reg({ project: '/work/p' }));
    expect(back).toMatchObject({ resumed: true, session: { id: first.session.id } });
  });

  it('never hands a session whose server is alive to another client with the same key', () => {
    registry = new SessionRegistry(60_000, () => undefined);
    const first = registry.bind(conn(), reg({ sessionKey: 'shared' }));
    const thief = registry.bind(conn(), reg({ sessionKey: 'shared' }));
    expect(thief.resumed).toBe(false);
    expect(thief.session.id).not.toBe(first.session.id);
  });

  it('counts resumes, with the downtime and the time to the first answered call', () => {
    registry = new SessionRegistry(60_000, () => undefined);
    const c = conn();
    const { session } = registry.bind(c, reg({ sessionKey: 'k' }));
    expect(session.resume).toEqual({ count: 0 });
    registry.release(c);
    registry.bind(conn(), reg({ sessionKey: 'k' }));
    expect(session.resume.count).toBe(1);
    expect(session.resume.downtimeMs).toBeGreaterThanOrEqual(0);
    expect(session.resume.lastMs, 'not resumed until a call is answered').toBeUndefined();
    expect(registry.answered(session.id)?.resume.lastMs).toBeGreaterThanOrEqual(0);
    expect(registry.answered(session.id), 'only the first answer ends the resume').toBeUndefined();
  });
});
