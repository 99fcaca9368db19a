// Saving the pages the driver does not understand. On a `selector_miss`, a page of no known kind, or a miss
// of the health tour, the seat writes the page - redacted - into its dumps folder
// (LEADFLOW_LINKEDIN_PAGE_DUMPS_DIR, one folder per seat): `<stamp>-<kind>.html` (scripts, styles, frames
// and embedded data removed; members' names, vanities, URNs, ids, e-mail addresses and phone numbers
// replaced by tokens; long texts - headlines, messages, posts - blanked to x's of the same shape; open
// shadow roots kept as declarative ones), `.json` (kind, path, what missed) and `.png` (a screenshot -
// NOT redacted: it stays on the server). Copied into test/fixtures/linkedin-real/ (git-ignored), the
// .html/.json pairs become tests: page-dumps.test.ts loads each with `setContent` and checks that the
// site profile finds what that page kind must show (site-check.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Page } from 'playwright-core';
import { classifyUrl, type PageKind } from './linkedin-pages.js';
import { LABELS } from './linkedin-selectors.js';

/** What a dump's `.json` says. */
export type DumpMeta = {
  kind: PageKind;
  /** The page's path, redacted like the page. */
  path: string;
  /** What the driver was looking for, and what it answered. */
  what: string;
  /** The items this page missed (site-check.ts names), when known. */
  missed?: string[];
  at: string;
};

/**
 * The redaction, run in the page (it has the DOM; this process has none): serialises the document with
 * its open shadow roots, parses that copy, and rewrites the copy only - the live page is untouched.
 * Answers the redacted HTML and the page's path with the same tokens.
 */
const REDACT = `((keep) => {
  const shadowRoots = (root) => {
    const found = [];
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) found.push(el.shadowRoot, ...shadowRoots(el.shadowRoot));
    }
    return found;
  };
  const lang = document.documentElement.getAttribute('lang') || '';
  const copy = Document.parseHTMLUnsafe(
    '<!doctype html><html>' + document.documentElement.getHTML({ shadowRoots: shadowRoots(document) }) + '</html>',
  );
  const roots = [copy, ...shadowRoots(copy)];
  const all = () => roots.flatMap((r) => Array.from(r.querySelectorAll('*')));
  for (const el of all()) {
    if (el.matches('script, noscript, style, link, iframe, object, embed, code, meta:not([charset]), template')) el.remove();
  }
  const tokens = new Map();
  const token = (kind, value) => {
    const key = kind + ':' + value;
    if (!tokens.has(key)) tokens.set(key, kind + '-' + (tokens.size + 1));
    return tokens.get(key);
  };
  // Vanities (profile and invite links), member and company names.
  const vanities = new Set();
  const names = new Set();
  const clean = (s) => (s || '').replace(/\\s+/g, ' ').trim();
  for (const el of all()) {
    for (const attr of ['href', 'src']) {
      const v = el.getAttribute(attr) || '';
      for (const m of v.matchAll(/\\/in\\/([^/?#&"]+)/g)) vanities.add(decodeURIComponent(m[1]));
      for (const m of v.matchAll(/(?:vanityName|recipient)=([^&#"]+)/g)) vanities.add(decodeURIComponent(m[1]));
    }
    if (el.matches('a[href*="/in/"]')) names.add(clean(el.textContent));
    if (el.matches('img[alt]')) names.add(clean(el.getAttribute('alt')));
    if (el.matches('section[data-member-id] h1, [id$="Topcard"] h2, [componentkey*="Topcard"] h2')) names.add(clean(el.textContent));
    const invite = /^Invite (.+) to connect$/.exec(el.getAttribute('aria-label') || '');
    if (invite) names.add(clean(invite[1]));
  }
  // A profile's title is its member's name.
  if (/^\\/in\\/[^/]+\\/?$/.test(location.pathname)) names.add(clean(document.title).replace(/\\s*\\|\\s*LinkedIn$/, ''));
  const nameList = [...names].filter((n) => n.length >= 3 && n.length <= 60 && /\\p{L}/u.test(n) && !keep.includes(n));
  const parts = new Set(
    nameList.flatMap((n) => n.split(/[\\s,]+/)).filter((w) => w.length >= 3 && /^\\p{Lu}/u.test(w) && !keep.includes(w)),
  );
  const escape = (s) => s.replace(/[.*+?^\${}()|[\\]\\\\]/g, '\\\\$&');
  const byLength = (list) => [...list].sort((a, b) => b.length - a.length).map(escape);
  const nameRe = nameList.length ? new RegExp('(' + byLength(nameList).join('|') + ')', 'gu') : null;
  const partRe = parts.size ? new RegExp('(?<![\\\\p{L}-])(' + byLength(parts).join('|') + ')(?![\\\\p{L}-])', 'gu') : null;
  const slugs = [...vanities].filter((v) => v.length >= 3 && v !== 'me');
  const vanityRe = slugs.length ? new RegExp('(?<![\\w-])(' + byLength(slugs).join('|') + ')(?![\\w-])', 'g') : null;
  const redact = (s) => {
    let out = s;
    if (vanityRe) out = out.replace(vanityRe, (v) => token('member', v));
    out = out
      .replace(/ACoA[A-Za-z0-9_-]{4,}/g, (v) => 'ACoA' + token('id', v))
      .replace(/(urn:li:[A-Za-z_]+:)([^,)\\s"&]+)/g, (_m, p, v) => p + token('id', v))
      .replace(/[\\w.+-]+@[\\w-]+\\.[\\w.-]+/g, 'someone@example.invalid')
      .replace(/\\+?\\d[\\d ().-]{7,}\\d/g, (v) => v.replace(/\\d/g, '0'));
    if (nameRe) out = out.replace(nameRe, (v) => token('Name', v));
    if (partRe) out = out.replace(partRe, (v) => token('Name', v));
    return out;
  };
  const blank = (s) => s.replace(/[^\\s]/g, 'x');
  for (const el of all()) {
    for (const attr of Array.from(el.attributes)) {
      if (attr.name.startsWith('on')) { el.removeAttribute(attr.name); continue; }
      if (['src', 'srcset', 'poster'].includes(attr.name)) { el.setAttribute(attr.name, ''); continue; }
      let v = redact(attr.value);
      if (/(^|-)(id|urn|entity-urn|member-id)$/.test(attr.name) && /^\\d{3,}$/.test(v)) v = String(100000 + tokens.size);
      if (['aria-label', 'alt', 'title', 'placeholder', 'value', 'content'].includes(attr.name) && v.length > 80) v = blank(v);
      if (v !== attr.value) el.setAttribute(attr.name, v);
    }
  }
  for (const root of roots) {
    const walker = copy.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = redact(node.nodeValue);
      node.nodeValue = clean(text).length > 48 ? blank(text) : text;
    }
  }
  const html = copy.documentElement.getHTML({ shadowRoots: shadowRoots(copy) });
  return {
    html: '<!doctype html><html lang="' + lang + '">' + html + '</html>',
    path: redact(location.pathname + location.search),
  };
})`;

/** Words of the label tables (and LinkedIn's own words) never taken for part of a name. */
const KEEP = [
  ...new Set(
    [
      ...Object.values(LABELS).flatMap((t) => Object.values(t)),
      'LinkedIn Premium Message Connect More Follow',
    ]
      .flatMap((label) => label.split(/\s+/))
      .filter((w) => w.length >= 3),
  ),
];

/** The page as a redacted HTML document, and its redacted path. */
export function redactedPage(page: Page): Promise<{ html: string; path: string }> {
  return page.evaluate(`${REDACT}(${JSON.stringify(KEEP)})`);
}

/** At most one dump of a kind and item per seat per hour, and at most this many files per seat. */
const PER_ITEM_MS = 3_600_000;
const MAX_DUMPS = 200;
const lastDump = new Map<string, number>();

export type PageDumps = {
  /** Saves the page (once an hour per kind and item); answers the file's base path, or null if skipped. */
  save(page: Page, meta: Pick<DumpMeta, 'what' | 'missed'>): Promise<string | null>;
};

/** The seat's dumps folder (`<dir>/seat-<team>-<seat>`), or none when `dir` is not set. */
export function pageDumps(
  dir: string | undefined,
  seat: { teamId: number; seatId: number },
  logger?: Logger,
): PageDumps {
  const folder = dir ? path.join(dir, `seat-${seat.teamId}-${seat.seatId}`) : null;
  return {
    async save(page, meta) {
      if (!folder) return null;
      const kind = classifyUrl(page.url());
      const key = `${folder}:${kind}:${(meta.missed ?? [meta.what]).join(',')}`;
      const now = Date.now();
      if (now - (lastDump.get(key) ?? 0) < PER_ITEM_MS) return null;
      lastDump.set(key, now);
      try {
        await fs.mkdir(folder, { recursive: true });
        const files = await fs.readdir(folder);
        if (files.filter((f) => f.endsWith('.html')).length >= MAX_DUMPS) return null;
        const { html, path: redactedPath } = await redactedPage(page);
        const base = path.join(folder, `${new Date(now).toISOString().replace(/[:.]/g, '-')}-${kind}`);
        const full: DumpMeta = { kind, path: redactedPath, at: new Date(now).toISOString(), ...meta };
        await fs.writeFile(`${base}.html`, html);
        await fs.writeFile(`${base}.json`, `${JSON.stringify(full, null, 2)}\n`);
        await page.screenshot({ path: `${base}.png`, timeout: 5_000 }).catch(() => undefined);
        logger?.warn({ dump: base, kind, what: meta.what }, 'LinkedIn page saved for inspection');
        return base;
      } catch (error) {
        logger?.warn({ err: error }, 'Could not save a LinkedIn page dump');
        return null;
      }
    },
  };
}
