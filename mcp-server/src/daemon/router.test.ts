import { describe, expect, it, vi } from 'vitest';
import type { Frame, RequestFrame } from '@browser-agent/protocol';
import { Router } from './router.js';
import type { ServerConnection } from './serverConnection.js';

function setup() {
  const toExtension: Frame[] = [];
  const toServer: Frame[] = [];
  const router = new Router((frame) => {
    toExtension.push(frame);
    return true;
  });
  const conn = { send: (frame: Frame) => toServer.push(frame) } as unknown as ServerConnection;
  const request: RequestFrame = {
    type: 'request',
    id: 'caller-1',
    sessionId: 's1',
    action: 'browser_wait_for',
    params: { time: 10 },
    timeoutMs: 1_000,
  };
  return { router, conn, request, toExtension, toServer };
}

describe('Router cancellation', () => {
  it('passes a cancel on to the extension under the id it gave the call, and answers nothing', () => {
    const { router, conn, request, toExtension, toServer } = setup();
    router.forward(conn, request);
    const forwarded = toExtension[0];
    expect(forwarded?.type).toBe('request');
    expect(router.cancel(conn, 'caller-1', 'cancelled by the MCP client')).toBe(true);
    expect(toExtension[1]).toEqual({
      type: 'cancel',
      id: forwarded?.type === 'request' ? forwarded.id : '',
      sessionId: 's1',
      reason: 'cancelled by the MCP client',
    });
    expect(toServer).toEqual([]);
    expect(router.inFlight).toBe(0);
    expect(router.cancel(conn, 'caller-1', 'again')).toBe(false);
  });

  it('stops the call in the extension when the caller disconnects or the call times out', () => {
    vi.useFakeTimers();
    try {
      const { router, conn, request, toExtension, toServer } = setup();
      router.forward(conn, request);
      router.forward(conn, { ...request, id: 'caller-2' });
      router.dropConnection(conn);
      expect(toExtension.filter((f) => f.type === 'cancel')).toHaveLength(2);

      router.forward(conn, { ...request, id: 'caller-3' });
      vi.advanceTimersByTime(1_001);
      expect(toServer.map((f) => f.type === 'response' && f.payload.success === false)).toEqual([
        true,
      ]);
      expect(toExtension.at(-1)).toMatchObject({ type: 'cancel', reason: 'timed out' });
    } finally {
      vi.useRealTimers();
    }
  });
});
