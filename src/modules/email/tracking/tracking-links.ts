// Open pixels, click redirects and one-click unsubscribe links. Their ids are sealed with the secret box
// (AES-GCM: opaque and tamper-proof, so nobody can forge an open, a click or an unsubscribe of someone
// else), and the public endpoints that read them need no API key.
import type { SecretBox } from '../../../lib/secrets.js';

export type TrackingKind = 'open' | 'click' | 'unsubscribe';
export type TrackingClaim = { kind: TrackingKind; teamId: number; emailUuid: string; url?: string };

type Wire = { k: 'o' | 'c' | 'u'; t: number; e: string; u?: string };
const KIND_CODES: Record<TrackingKind, Wire['k']> = { open: 'o', click: 'c', unsubscribe: 'u' };
const CODE_KINDS: Record<Wire['k'], TrackingKind> = { o: 'open', c: 'click', u: 'unsubscribe' };

export function trackingToken(box: SecretBox, claim: TrackingClaim): string {
  const wire: Wire = {
    k: KIND_CODES[claim.kind],
    t: claim.teamId,
    e: claim.emailUuid,
    ...(claim.url ? { u: claim.url } : {}),
  };
  return Buffer.from(box.seal(JSON.stringify(wire))).toString('base64url');
}

/** The claim of a token, or undefined when it is not one of ours (forged, truncated, other key). */
export function readTrackingToken(box: SecretBox, token: string): TrackingClaim | undefined {
  try {
    const wire = JSON.parse(box.openText(Buffer.from(token, 'base64url').toString('utf8'))) as Wire;
    const kind = CODE_KINDS[wire.k];
    if (!kind || typeof wire.e !== 'string' || typeof wire.t !== 'number') return undefined;
    return { kind, teamId: wire.t, emailUuid: wire.e, ...(wire.u ? { url: wire.u } : {}) };
  } catch {
    return undefined;
  }
}

export type TrackingOptions = { opens: boolean; clicks: boolean; unsubscribe: boolean };

export function unsubscribeUrl(publicUrl: string, box: SecretBox, teamId: number, emailUuid: string) {
  return `${publicUrl}/emails/t/u/${trackingToken(box, { kind: 'unsubscribe', teamId, emailUuid })}`;
}

/**
 * The HTML as sent: http(s) links through the click redirect, a 1x1 pixel before </body> (or at the
 * end), and an unsubscribe link at the bottom - each only when asked for.
 */
export function addTracking(
  html: string,
  options: TrackingOptions & { publicUrl: string; box: SecretBox; teamId: number; emailUuid: string },
): string {
  const { publicUrl, box, teamId, emailUuid } = options;
  let out = html;
  if (options.clicks) {
    out = out.replace(
      /(<a\s[^>]*?href\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi,
      (_m, before, quote, url: string) => {
        const token = trackingToken(box, {
          kind: 'click',
          teamId,
          emailUuid,
          url: url.replace(/&amp;/g, '&'),
        });
        return `${before}${quote}${publicUrl}/emails/t/c/${token}${quote}`;
      },
    );
  }
  const tail: string[] = [];
  if (options.unsubscribe) {
    tail.push(
      `<p style="font-size:11px;color:#888"><a href="${unsubscribeUrl(publicUrl, box, teamId, emailUuid)}">Unsubscribe</a></p>`,
    );
  }
  if (options.opens) {
    const token = trackingToken(box, { kind: 'open', teamId, emailUuid });
    tail.push(
      `<img src="${publicUrl}/emails/t/o/${token}.gif" width="1" height="1" alt="" style="display:none">`,
    );
  }
  if (tail.length === 0) return out;
  const at = out.search(/<\/body>/i);
  return at >= 0 ? `${out.slice(0, at)}${tail.join('')}${out.slice(at)}` : `${out}${tail.join('')}`;
}
