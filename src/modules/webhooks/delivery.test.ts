// The pure parts of delivery: retry timing and the body's envelope.
import { describe, expect, it } from 'vitest';
import { eventBody, retryDelayMs } from './delivery.js';

describe('retryDelayMs', () => {
  const schedule = [5, 60, 300];

  it('follows the schedule, with up to 20% jitter on top', () => {
    expect(retryDelayMs(schedule, 1, () => 0)).toBe(5000);
    expect(retryDelayMs(schedule, 1, () => 0.999)).toBe(5999);
    expect(retryDelayMs(schedule, 2, () => 0.5)).toBe(66_000);
    expect(retryDelayMs(schedule, 3, () => 0)).toBe(300_000);
  });

  it('has no next attempt once the schedule is used up', () => {
    expect(retryDelayMs(schedule, 4)).toBeUndefined();
    expect(retryDelayMs([], 1)).toBeUndefined();
  });
});

describe('eventBody', () => {
  const event = {
    event_name: 'contact_exported',
    event_uuid: '0190d4c2-7b1e-7c3a-9f00-000000000001',
    occurred_at: new Date('2026-01-15T10:30:00Z'),
    team_id: 7,
  };

  it('puts the envelope first and splices the stored objects after it', () => {
    const body = eventBody({ ...event, payload: '{"contact": {"uuid": "x"}, "account": null}' });
    expect(JSON.parse(body)).toEqual({
      event_name: 'contact_exported',
      event_uuid: event.event_uuid,
      occurred_at: '2026-01-15T10:30:00.000Z',
      team_id: 7,
      contact: { uuid: 'x' },
      account: null,
    });
    expect(Object.keys(JSON.parse(body))[0]).toBe('event_name');
  });

  it('handles an empty payload', () => {
    expect(JSON.parse(eventBody({ ...event, payload: '{}' }))).toEqual({
      event_name: 'contact_exported',
      event_uuid: event.event_uuid,
      occurred_at: '2026-01-15T10:30:00.000Z',
      team_id: 7,
    });
  });
});
