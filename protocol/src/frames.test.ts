import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  EXTENSION_ID,
  EXTENSION_PUBLIC_KEY,
  ErrorCode,
  PROTOCOL_VERSION,
  BridgeError,
  checkVersion,
  parseFrame,
  serializeFrame,
  toWireError,
  type Frame,
} from './index.js';

describe('parseFrame', () => {
  it('round-trips every frame kind', () => {
    const frames: Frame[] = [
      {
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        role: 'server',
        client: { name: 'c', version: '1' },
      },
      { type: 'welcome', protocolVersion: PROTOCOL_VERSION },
      { type: 'register', client: { name: 'c', version: '1' }, project: '/p', sessionKey: 'k' },
      { type: 'register_ok', sessionId: 's1', resumed: false },
      { type: 'request', id: '1', sessionId: 's1', action: 'browser_snapshot', params: {} },
      {
        type: 'response',
        id: '1',
        sessionId: 's1',
        payload: { success: true, data: { content: [] } },
      },
      {
        type: 'response',
        id: '1',
        sessionId: 's1',
        payload: { success: false, error: { code: 'STALE_REF', message: 'm', hint: 'h' } },
      },
      { type: 'session_start', sessionId: 's1', client: { name: 'c', version: '1' } },
      { type: 'session_end', sessionId: 's1', reason: 'bye' },
      { type: 'ping', t: 1 },
      { type: 'error', error: { code: 'INVALID_FRAME', message: 'x' } },
    ];
    for (const frame of frames) {
      const parsed = parseFrame(serializeFrame(frame));
      expect(parsed).toEqual({ ok: true, frame });
    }
  });

  it('refuses text that is not JSON', () => {
    const parsed = parseFrame('{"type":');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.code).toBe(ErrorCode.INVALID_FRAME);
  });

  it('refuses an unknown frame type and a request without an id, naming the field', () => {
    expect(parseFrame('{"type":"launch_missiles"}').ok).toBe(false);
    const parsed = parseFrame('{"type":"request","sessionId":"s","action":"a","params":{}}');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toContain('id');
  });

  it('refuses an unknown error code inside a response', () => {
    const raw = JSON.stringify({
      type: 'response',
      id: '1',
      sessionId: 's',
      payload: { success: false, error: { code: 'NOPE', message: 'm' } },
    });
    expect(parseFrame(raw).ok).toBe(false);
  });

  it('refuses an oversized frame before parsing it', () => {
    const parsed = parseFrame(`{"type":"ping","t":1,"pad":"${'x'.repeat(200)}"}`, 100);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toMatch(/exceeds/);
  });
});

describe('checkVersion', () => {
  it('accepts the same version and names the older side otherwise', () => {
    expect(checkVersion(PROTOCOL_VERSION, 'the extension')).toBeUndefined();
    const older = checkVersion(PROTOCOL_VERSION - 1, 'the extension');
    expect(older?.code).toBe(ErrorCode.VERSION_MISMATCH);
    expect(older?.hint).toContain('Update the extension');
    expect(checkVersion(PROTOCOL_VERSION + 1, 'the extension')?.hint).toContain('Update this side');
  });
});

describe('extension id', () => {
  it('is derived from the pinned manifest key', () => {
    const hex = createHash('sha256')
      .update(Buffer.from(EXTENSION_PUBLIC_KEY, 'base64'))
      .digest('hex')
      .slice(0, 32);
    const id = [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
    expect(id).toBe(EXTENSION_ID);
  });
});

describe('toWireError', () => {
  it('keeps code and hint of a BridgeError and maps anything else to INTERNAL', () => {
    expect(toWireError(new BridgeError(ErrorCode.STALE_REF, 'old', 'snapshot again'))).toEqual({
      code: 'STALE_REF',
      message: 'old',
      hint: 'snapshot again',
    });
    expect(toWireError(new Error('boom'))).toEqual({ code: 'INTERNAL', message: 'boom' });
    expect(toWireError('text')).toEqual({ code: 'INTERNAL', message: 'text' });
  });
});
