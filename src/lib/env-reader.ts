// Typed reading of environment variables (config.ts): each bad value is noted in `problems` and its
// fallback used, so every problem is reported at once.

export type Env = Record<string, string | undefined>;

export class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback: string): string {
    const value = this.env[name];
    return value === undefined || value === '' ? fallback : value;
  }

  optional(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  int(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  oneOf(name: string, fallback: string, values: readonly string[]): string {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!values.includes(raw.toLowerCase())) {
      this.problems.push(`${name} must be one of ${values.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw.toLowerCase();
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.optional(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  /** An optional http(s) URL. */
  httpUrl(name: string): string | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {}
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      this.problems.push(`${name} must be an http or https URL (got "${raw}")`);
      return undefined;
    }
    return raw;
  }

  /** A comma-separated list; `problem` says why an entry cannot be read. */
  list(name: string, problem: (entry: string) => string | undefined): string[] {
    const entries = (this.optional(name) ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    for (const entry of entries) {
      const why = problem(entry);
      if (why) this.problems.push(`${name}: ${why}`);
    }
    return entries;
  }

  fraction(name: string, fallback: number): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0 || value > 1) {
      this.problems.push(`${name} must be a number between 0 and 1 (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  intList(name: string, fallback: number[]): number[] {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const values = raw.split(',').map((part) => Number(part.trim()));
    if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v < 0)) {
      this.problems.push(`${name} must be a comma-separated list of whole seconds (got "${raw}")`);
      return fallback;
    }
    return values;
  }
}
