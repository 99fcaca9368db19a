// What the live view page may send: input events only, each a closed message (no other field, no raw
// browser-protocol command). A message that does not match is dropped; a valid one is replayed on the
// seat's page through Playwright's mouse and keyboard (CDP Input.dispatchMouseEvent/dispatchKeyEvent/
// insertText underneath).
import { Ajv } from 'ajv';
import type { Page } from 'playwright-core';
import { type Static, Type } from 'typebox';

const Coordinate = Type.Number({ minimum: 0, maximum: 10_000 });
const Button = Type.Union([Type.Literal('left'), Type.Literal('middle'), Type.Literal('right')]);
const closed = { additionalProperties: false } as const;

export const InputMessage = Type.Union([
  Type.Object(
    {
      type: Type.Literal('mouse'),
      action: Type.Union([Type.Literal('move'), Type.Literal('down'), Type.Literal('up')]),
      x: Coordinate,
      y: Coordinate,
      button: Type.Optional(Button),
      clicks: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
    },
    closed,
  ),
  Type.Object(
    {
      type: Type.Literal('wheel'),
      x: Coordinate,
      y: Coordinate,
      dx: Type.Number({ minimum: -10_000, maximum: 10_000 }),
      dy: Type.Number({ minimum: -10_000, maximum: 10_000 }),
    },
    closed,
  ),
  Type.Object(
    {
      type: Type.Literal('key'),
      action: Type.Union([Type.Literal('down'), Type.Literal('up')]),
      key: Type.String({ minLength: 1, maxLength: 16 }),
    },
    closed,
  ),
  Type.Object({ type: Type.Literal('paste'), text: Type.String({ minLength: 1, maxLength: 4096 }) }, closed),
]);

export type InputMessage = Static<typeof InputMessage>;

const check = new Ajv({ strict: false, allErrors: false }).compile(InputMessage as object);

/** Named keys the page may press (any single character is allowed too). */
const NAMED_KEYS = new Set([
  'Enter',
  'Tab',
  'Backspace',
  'Delete',
  'Escape',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Shift',
  'Control',
  'Alt',
  'Meta',
]);

/** The message, if it is one of the accepted input events; otherwise null. */
export function parseInput(raw: string): InputMessage | null {
  if (raw.length > 8192) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!check(value)) return null;
  const message = value as InputMessage;
  if (message.type === 'key' && [...message.key].length !== 1 && !NAMED_KEYS.has(message.key)) return null;
  if (message.type === 'key' && [...message.key].some((c) => (c.codePointAt(0) ?? 0) < 32 || c === '\u007f'))
    return null;
  return message;
}

/** Replays one input event on the page. */
export async function applyInput(page: Page, message: InputMessage): Promise<void> {
  switch (message.type) {
    case 'mouse':
      if (message.action === 'move') return page.mouse.move(message.x, message.y);
      await page.mouse.move(message.x, message.y);
      {
        const options = { button: message.button ?? 'left', clickCount: message.clicks ?? 1 } as const;
        return message.action === 'down' ? page.mouse.down(options) : page.mouse.up(options);
      }
    case 'wheel':
      await page.mouse.move(message.x, message.y);
      return page.mouse.wheel(message.dx, message.dy);
    case 'key':
      return message.action === 'down' ? page.keyboard.down(message.key) : page.keyboard.up(message.key);
    case 'paste':
      return page.keyboard.insertText(message.text);
  }
}
