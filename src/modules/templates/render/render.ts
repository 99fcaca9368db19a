// The message renderer shared by the AI templates API and the automation engine: spintax first (on the
// template source, Liquid markup left alone), then Liquid over the contact's variables. Pure and
// synchronous - no I/O - so the engine can render a batch of messages without waiting on anything.
//
// Liquid is locked down: no file system (include, render and layout are refused), own properties only,
// unknown filters are errors, and every render is bounded in time, memory and output size.
import { Drop, Liquid, type Template } from 'liquidjs';
import { LRUCache } from 'lru-cache';
import {
  COMPANY_VARIABLES,
  CONTACT_VARIABLES,
  customFieldSlug,
  SENDER_VARIABLES,
} from '../template-variables.js';
import { FieldsDrop, Missing, REFS, SealedDrop, seal, type VariableRef } from './scope.js';
import { parseSpintax, pickOption, realizeSpintax, type SpinTree, seededRandom } from './spintax.js';

export const RENDER_LIMITS = {
  /** Longest template source accepted (characters). */
  sourceChars: 20_000,
  /** Longest rendered text (characters); a longer result is an error, not a truncated message. */
  outputChars: 100_000,
  /** Time budget of one render (ms): loops cannot run away. */
  renderMs: 200,
  /** Liquid's allocation budget (array and string sizes summed): ranges and filters cannot blow up. */
  memory: 2_000_000,
} as const;

export type RenderOptions = {
  /** Same seed, same spintax picks (and `| spintax` picks): an automation step renders the same text on retry. */
  seed?: string;
  /** `html` escapes printed variable values (e-mail bodies); template text itself is never escaped. */
  escape?: 'html';
};

export type RenderResult = {
  text: string;
  /** Variables of the list that printed blank (or fed a printed value while blank). */
  missing: string[];
  /** Names that are not variables at all (typos, custom fields the team does not have); printed blank. */
  unknown: string[];
};

/** A template that cannot be rendered: bad syntax, a refused tag or filter, or a limit exceeded. */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly kind: 'syntax' | 'render' | 'limit',
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

// Per-render state, handed to Liquid as the render's `globals`: unknown top-level names fall through
// to it. Its members are private or symbol-keyed so templates cannot read or call them.
const STATE = Symbol('state');
const RESULT = Symbol('result');
type StateApi = { random: () => number; escapeHtml: boolean; record(refs: VariableRef[]): void };

class RenderState extends SealedDrop {
  readonly #missing = new Set<string>();
  readonly #unknown = new Set<string>();
  readonly [STATE]: StateApi;
  constructor(random: () => number, escapeHtml: boolean) {
    super();
    this[STATE] = {
      random,
      escapeHtml,
      record: (refs) => {
        for (const ref of refs) (ref.known ? this.#missing : this.#unknown).add(ref.name);
      },
    };
  }
  override liquidMethodMissing(key: unknown): Missing {
    return new Missing([{ name: String(key), known: false }]);
  }
  [RESULT](text: string): RenderResult {
    return { text, missing: [...this.#missing], unknown: [...this.#unknown] };
  }
}
seal(RenderState);
type FilterThis = { context: { globals: unknown } };
const stateOf = (self: FilterThis) => (self.context.globals as RenderState)[STATE];

function refsOf(value: unknown): VariableRef[] {
  return value instanceof Missing || value instanceof FieldsDrop ? value[REFS]() : [];
}

function print(value: unknown): string {
  const plain = value instanceof Drop ? value.valueOf() : value;
  if (plain == null) return '';
  if (Array.isArray(plain)) return plain.map(print).join(', ');
  return String(plain);
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);

function createEngine(): Liquid {
  const liquid = new Liquid({
    ownPropertyOnly: true,
    strictFilters: true,
    strictVariables: false,
    // No template lookups of any kind: partials would otherwise come from the file system.
    templates: {},
    relativeReference: false,
    parseLimit: RENDER_LIMITS.sourceChars * 2,
    renderLimit: RENDER_LIMITS.renderMs,
    memoryLimit: RENDER_LIMITS.memory,
    // Runs on every `{{ }}` and `{% echo %}`: remembers blank variables, prints arrays as lists.
    outputEscape(this: FilterThis, value: unknown) {
      const state = stateOf(this);
      const refs = refsOf(value);
      if (refs.length > 0) state.record(refs);
      const text = print(value);
      return state.escapeHtml ? escapeHtml(text) : text;
    },
  });
  for (const tag of ['include', 'render', 'layout', 'block']) {
    liquid.registerTag(tag, {
      parse() {
        throw new Error(`the ${tag} tag is not available in message templates`);
      },
      render() {},
    });
  }
  // Filters see plain values; a result computed from a blank variable stays marked as blank, so
  // `{{ first_name | capitalize }}` still reports first_name. `default` replaces blanks, so it does not.
  for (const [name, impl] of Object.entries(liquid.filters)) {
    if (name === 'default') continue;
    const handler = typeof impl === 'function' ? impl : impl.handler;
    if (!handler) continue;
    liquid.registerFilter(name, function (this: FilterThis, value: unknown, ...args: unknown[]) {
      const refs = [...refsOf(value)];
      const plainArgs = args.map((arg) => {
        if (Array.isArray(arg) && arg.length === 2 && typeof arg[0] === 'string' && arg[1] instanceof Drop) {
          refs.push(...refsOf(arg[1]));
          return [arg[0], arg[1].valueOf()];
        }
        refs.push(...refsOf(arg));
        return arg instanceof Missing ? arg.valueOf() : arg;
      });
      const result = handler.call(
        this as never,
        value instanceof Missing ? value.valueOf() : value,
        ...plainArgs,
      );
      return refs.length > 0 ? new Missing(refs, result) : result;
    });
  }
  liquid.registerFilter('spintax', function (this: FilterThis, value: unknown) {
    return pickOption(print(value), stateOf(this).random);
  });
  return liquid;
}

const engine = createEngine();

// Parsed forms are cached by source text: the engine renders the same few templates for many contacts.
// A spintax tree per template, a Liquid parse per realized text (spintax variants are few in practice).
const spinCache = new LRUCache<string, SpinTree>({ max: 2000 });
const liquidCache = new LRUCache<string, Template[] | TemplateError>({ max: 5000 });

function spinTree(source: string): SpinTree {
  let tree = spinCache.get(source);
  if (!tree) {
    tree = parseSpintax(source);
    spinCache.set(source, tree);
  }
  return tree;
}

function liquidTemplates(text: string): Template[] {
  let parsed = liquidCache.get(text);
  if (!parsed) {
    try {
      parsed = engine.parse(text);
    } catch (error) {
      parsed = new TemplateError(describe(error), 'syntax');
    }
    liquidCache.set(text, parsed);
  }
  if (parsed instanceof TemplateError) throw parsed;
  return parsed;
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Liquid appends the source line; the message with its line and column is what an author needs.
  return message.split('\n')[0]!.replace(/^(ParseError|RenderError|TokenizationError): /, '');
}

/**
 * Renders `source` over `scope` (from `buildScope`). Throws `TemplateError` for templates that cannot be
 * rendered; blank and unknown variables are not errors, they are reported in the result.
 */
export function renderTemplate(
  source: string,
  scope: Record<string, unknown>,
  options: RenderOptions = {},
): RenderResult {
  if (source.length > RENDER_LIMITS.sourceChars) {
    throw new TemplateError(`template is longer than ${RENDER_LIMITS.sourceChars} characters`, 'limit');
  }
  const random = options.seed === undefined ? Math.random : seededRandom(options.seed);
  const text = realizeSpintax(spinTree(source), random);
  const templates = liquidTemplates(text);
  const state = new RenderState(random, options.escape === 'html');
  let output: string;
  try {
    output = engine.renderSync(templates, scope, { globals: state });
  } catch (error) {
    const message = describe(error);
    throw new TemplateError(message, /limit exceeded/.test(message) ? 'limit' : 'render');
  }
  if (output.length > RENDER_LIMITS.outputChars) {
    throw new TemplateError(`rendered text is longer than ${RENDER_LIMITS.outputChars} characters`, 'limit');
  }
  return state[RESULT](output);
}

export type TemplateCheck = {
  /** Syntax problems (empty when the template parses). */
  errors: string[];
  /** Every variable path the template reads from outside (`first_name`, `company.domain`). */
  variables: string[];
  /** Of those, the ones that are not template variables (given the team's custom field names, if known). */
  unknown: string[];
};

/** The team's custom field names, when a check should also catch custom fields that do not exist. */
export type CustomFieldNames = { lead: string[]; company: string[] };

/**
 * Static check of a template: its Liquid syntax (every spintax option is parsed) and the variables it
 * reads. Custom field names are only checked when `customFields` is given.
 */
export function checkTemplate(source: string, customFields?: CustomFieldNames): TemplateCheck {
  if (source.length > RENDER_LIMITS.sourceChars) {
    return {
      errors: [`template is longer than ${RENDER_LIMITS.sourceChars} characters`],
      variables: [],
      unknown: [],
    };
  }
  // All options side by side: the groups' own delimiters blanked in place, so each Liquid fragment is
  // parsed once, options that are balanced on their own stay balanced together, and the parser's line
  // and column point into the author's source.
  const all = maskDelimiters(source, spinTree(source).delimiters);
  let templates: Template[];
  try {
    templates = liquidTemplates(all);
  } catch (error) {
    return { errors: [error instanceof Error ? error.message : String(error)], variables: [], unknown: [] };
  }
  const variables = [...new Set(engine.globalFullVariablesSync(templates))];
  const unknown = variables.filter((path) => !isKnownVariable(path, customFields));
  return { errors: [], variables, unknown };
}

function maskDelimiters(source: string, delimiters: number[]): string {
  if (delimiters.length === 0) return source;
  const chars = source.split(''); // UTF-16 units, as the delimiter indexes count
  for (const index of delimiters) chars[index] = ' ';
  return chars.join('');
}

const contactNames = new Set<string>(CONTACT_VARIABLES);
const companyNames = new Set<string>(COMPANY_VARIABLES);
const senderNames = new Set<string>(SENDER_VARIABLES);

function isKnownVariable(path: string, customFields?: CustomFieldNames): boolean {
  const [head = '', second, third] = splitPath(path);
  const isField = (names: string[] | undefined, key: string | undefined) => {
    if (key === undefined || !names) return true;
    const lower = key.toLowerCase();
    return names.some((name) => name.toLowerCase() === lower || customFieldSlug(name) === lower);
  };
  if (contactNames.has(head)) return true;
  if (head === 'company') {
    if (second === undefined || companyNames.has(second)) return true;
    return second === 'custom_fields' && isField(customFields?.company, third);
  }
  if (head === 'sender') return second === undefined || senderNames.has(second);
  if (head === 'custom_fields') return isField(customFields?.lead, second);
  if (head.startsWith('cf_')) return isField(customFields?.lead, head.slice(3));
  return false;
}

/** `custom_fields["Deal size"].x` → ['custom_fields', 'Deal size', 'x'] (Liquid's static paths). */
function splitPath(path: string): string[] {
  const parts: string[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[["']([^"']*)["']\]|\[(\d+)\]/g)) {
    parts.push(match[1] ?? match[2] ?? match[3] ?? '');
  }
  return parts;
}
