// The chromium seat kind: its seats act, read and read their inbox in the seat's real browser (the
// process's pool of seat browsers, taken when a seat is first used).
import type { Logger } from 'pino';
import type { AttachmentFiles } from '../../attachments/attachment-files.js';
import type { ReadPace } from '../../channels/reader.js';
import type { SeatKind, SeatRow } from '../../channels/registry.js';
import type { ActionBreakers } from '../seat-health.js';
import type { SeatNotes } from '../seat-notes.js';
import { createChromiumDriver, createChromiumInbox, createChromiumReader } from './chromium-driver.js';
import type { ChromiumSeat } from './chromium-pages.js';
import type { SeatBrowsers } from './seat-browsers.js';

export type ChromiumSeatOptions = {
  /** The process's seat browsers (asked for when a seat is first used). */
  browsers: () => SeatBrowsers;
  /** https://www.linkedin.com, or the replica in tests. */
  baseUrl: string;
  /** Where actions and the inbox log what a page did not show (reads log nothing). */
  logger?: Logger;
  /** How fast a seat reads profiles and search pages. */
  pace: ReadPace;
  attachmentFiles: AttachmentFiles;
  /** A seat's per-action circuit breakers. */
  breakers: (seat: ChromiumSeat) => ActionBreakers;
  /** A seat's invitation-note policy and count. */
  notes: (seat: ChromiumSeat) => SeatNotes;
};

export function chromiumSeatKind(options: ChromiumSeatOptions): SeatKind {
  const seatOf = (row: SeatRow): ChromiumSeat => ({ teamId: row.team_id, seatId: row.id });
  const logger = options.logger ? { logger: options.logger } : {};
  return {
    driver: (row) => {
      const seat = seatOf(row);
      return createChromiumDriver(seat, {
        browsers: options.browsers(),
        baseUrl: options.baseUrl,
        ...logger,
        attachmentFiles: options.attachmentFiles,
        breakers: options.breakers(seat),
        notes: options.notes(seat),
      });
    },
    reader: (row) =>
      createChromiumReader(seatOf(row), {
        browsers: options.browsers(),
        baseUrl: options.baseUrl,
        pace: options.pace,
      }),
    inbox: (row) =>
      createChromiumInbox(seatOf(row), { browsers: options.browsers(), baseUrl: options.baseUrl, ...logger }),
  };
}
