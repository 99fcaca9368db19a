// Data for the CRM benchmark: contacts as a client would send them, and a SQL seeder that fills the
// real leads table with the same shape of data (generate_series), so a million contacts take about
// a minute instead of a thousand API calls.
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';

const FIRST_NAMES = [
  'Anna',
  'Ben',
  'Carla',
  'David',
  'Elena',
  'Felix',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Klara',
  'Lukas',
  'Mia',
  'Noah',
  'Olga',
  'Paul',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Uwe',
  'Vera',
  'Wim',
  'Xenia',
  'Yann',
  'Zoe',
];
const POSITIONS = [
  'Head of Sales',
  'CTO',
  'Software Engineer',
  'Marketing Manager',
  'CEO',
  'Account Executive',
  'Product Manager',
  'Data Scientist',
  'Recruiter',
  'Operations Lead',
];

/** A pronounceable pseudo-word for index `n` (same on the JS and the SQL side is not needed). */
function word(n: number, length: number): string {
  const consonants = 'bcdfghklmnprstvz';
  const vowels = 'aeiou';
  let out = '';
  let x = (n * 2654435761) >>> 0;
  for (let i = 0; i < length; i++) {
    out += i % 2 === 0 ? consonants[x % consonants.length] : vowels[x % vowels.length];
    x = Math.floor(x / 7) + i * 31 + 17;
  }
  return out[0]!.toUpperCase() + out.slice(1);
}

/**
 * The i-th contact of a run, as a create-lead object. `prefix` keeps runs and teams distinct;
 * `tenthTag` is given (by name) to every 10th contact.
 */
export function apiLead(prefix: string, i: number, tenthTag?: string): Record<string, unknown> {
  const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
  const last = word(i % 5000, 7);
  const company = `${word(i % 20000, 6)} ${i % 3 === 0 ? 'GmbH' : 'Inc'}`;
  return {
    first_name: first,
    last_name: last,
    company_name: company,
    position: POSITIONS[i % POSITIONS.length],
    headline: `${POSITIONS[(i + 3) % POSITIONS.length]} at ${company}`,
    linkedin_id: `https://www.linkedin.com/in/${prefix}-${first.toLowerCase()}-${i}`,
    email: `${first.toLowerCase()}.${prefix}${i}@${company.split(' ')[0]!.toLowerCase()}.com`,
    raw_address: 'Berlin, Germany',
    ...(tenthTag && i % 10 === 0 ? { tags: [tenthTag] } : {}),
  };
}

/**
 * Inserts `count` contacts numbered from `start` into the team with plain SQL. Every 10th contact
 * carries `tenthTag`, every 100th `hundredthTag` too, every 1000th sits in `rareList` (the rest in
 * `mainList`).
 */
export async function seedLeads(
  db: Database,
  options: {
    teamId: number;
    start: number;
    count: number;
    mainList: string;
    rareList: string;
    stage: string;
    tenthTag: string;
    /** Every 100th contact also carries this tag, when given. */
    hundredthTag?: string;
  },
): Promise<void> {
  const { teamId, start, count } = options;
  const firstNames = sql`${FIRST_NAMES}::text[]`;
  const positions = sql`${POSITIONS}::text[]`;
  await sql`
    insert into leads (
      team_id, uuid, list_uuid, pipeline_stage_uuid, name, first_name, last_name, company_name,
      position, headline, linkedin, work_email, raw_address, tags, custom_fields, created_at, updated_at
    )
    select ${teamId}, leadflow_uuid_v7(),
      case when i % 1000 = 0 then ${options.rareList}::uuid else ${options.mainList}::uuid end,
      ${options.stage}::uuid,
      f || ' ' || ln, f, ln, co, p, p || ' at ' || co,
      'seed-' || i, lower(f) || '.seed' || i || '@' || lower(split_part(co, ' ', 1)) || '.com',
      'Berlin, Germany',
      case when i % 100 = 0 and ${options.hundredthTag ?? null}::uuid is not null
          then array[${options.tenthTag}::uuid, ${options.hundredthTag ?? null}::uuid]
        when i % 10 = 0 then array[${options.tenthTag}::uuid] else '{}'::uuid[] end,
      '{}'::jsonb,
      now() - make_interval(secs => (${start + count} - i)),
      now() - make_interval(secs => (${start + count} - i))
    from generate_series(${start}::int, ${start + count - 1}::int) as g(i)
    cross join lateral (
      select (${firstNames})[1 + i % ${FIRST_NAMES.length}] as f,
        initcap(substr(md5((i % 5000)::text), 1, 7)) as ln,
        initcap(substr(md5('co' || (i % 20000)::text), 1, 6)) || case when i % 3 = 0 then ' GmbH' else ' Inc' end as co,
        (${positions})[1 + i % ${POSITIONS.length}] as p
    ) v
  `.execute(db);
}

/** Last names the seeder produced, for free-text searches that match ~0.02% of the contacts each. */
export async function sampleLastNames(db: Database, teamId: number, count: number): Promise<string[]> {
  const rows = await sql<{ last_name: string }>`
    select distinct last_name from leads where team_id = ${teamId} and linkedin like 'seed-%' limit ${count}
  `.execute(db);
  return rows.rows.map((row) => row.last_name);
}
