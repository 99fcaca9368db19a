// CSV import and export at scale, with the physical limit measured in the same run:
//   import:  a generated contacts CSV (1,000,000 rows by default) uploaded and imported by the real job
//            (streaming parse, chunked set-based merge with dedup, blacklist and company linking);
//            rows/s from "import started" to "done".
//   COPY:    the same rows, already normalised, COPY'd into a copy of the contacts table with the same
//            indexes - the fastest way PostgreSQL reaches the same end state. The goal is >= 50% of it.
//   export:  the imported contacts exported by the real job (cursor → CSV → file store, then one
//            contact_exported event per contact); rows/s until the CSV is written and until the export is
//            done, and the process's peak RSS, next to a 10x smaller export so memory that grew with the
//            rows would show.
// The team has no blacklist entries and no companies, so the import skips those checks (as it does for
// any such team); the COPY baseline has no such work either.
// BENCH_FILES_ROWS changes the row count.
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import { startWorker } from '../../src/jobs/runner.js';
import { systemClock } from '../../src/lib/clock.js';
import { newId } from '../../src/lib/ids.js';
import { createLogger } from '../../src/lib/logger.js';
import { exportJobHandler } from '../../src/modules/files/export-runner.js';
import { createFilesService } from '../../src/modules/files/files.service.js';
import { importJobHandler } from '../../src/modules/files/import-runner.js';
import { createLocalFileStore, type FileStore } from '../../src/modules/files/storage.js';
import type { UploadPart } from '../../src/modules/files/uploads.js';
import { selectInitialStageUuid } from '../../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import type { BenchRow, Scenario } from '../lib.js';

const ROWS = Number(process.env.BENCH_FILES_ROWS ?? 1_000_000);
const CITIES = ['Berlin, Germany', 'Paris, France', 'Austin, TX, USA', 'London, UK', 'Madrid, Spain'];

type Person = {
  first: string;
  last: string;
  email: string;
  company: string;
  title: string;
  nickname: string;
  phone: string;
  city: string;
};

function person(i: number): Person {
  return {
    first: `First${i}`,
    last: `Last${i}`,
    email: `first${i}.last${i}@company${i % 5000}.example`,
    company: `Company ${i % 5000}`,
    title: ['CEO', 'CTO', 'Head of Sales', 'Engineer', 'Marketing Manager'][i % 5]!,
    nickname: `first-last-${i}`,
    phone: `+49 30 ${String(1_000_000 + i)}`,
    city: CITIES[i % CITIES.length]!,
  };
}

/** The CSV a user would upload. */
function* csvLines(rows: number): Generator<string> {
  yield 'First Name,Last Name,Email,Company,Title,LinkedIn,Phone,Location\n';
  for (let i = 1; i <= rows; i++) {
    const p = person(i);
    yield `${p.first},${p.last},${p.email},${p.company},${p.title},https://www.linkedin.com/in/${p.nickname},${p.phone},"${p.city}"\n`;
  }
}

async function writeLines(file: string, lines: Iterable<string>) {
  const out = createWriteStream(file);
  let buffer = '';
  for (const line of lines) {
    buffer += line;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
}

const tsv = (value: string | null) =>
  value === null ? '\\N' : value.replace(/[\\\t\n\r]/g, (c) => `\\${c}`);

/** The same people as the rows the import stores (COPY text format). */
function* copyLines(rows: number, teamId: number, list: string, stage: string): Generator<string> {
  for (let i = 1; i <= rows; i++) {
    const p = person(i);
    const cells = [
      String(teamId),
      newId(),
      list,
      stage,
      `${p.first} ${p.last}`,
      p.first,
      p.last,
      p.company,
      p.title,
      p.nickname,
      p.email,
      p.phone,
      p.city,
    ];
    yield `${cells.map(tsv).join('\t')}\n`;
  }
}

function peakRss() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage().rss);
  };
}

export const filesScenario: Scenario = {
  name: 'files',
  description: `CSV import of ${ROWS.toLocaleString('en-US')} contacts vs COPY, and their export`,
  async run(server, log) {
    const base = await server.newDatabase('files');
    const { db, pool } = base.handle;
    const dir = await mkdtemp(path.resolve('.bench', 'files-'));
    // A million generated rows are ~120 MB, over the default upload limit.
    const config = { ...base.config, filesDir: path.join(dir, 'store'), uploadMaxBytes: 4 * 1024 ** 3 };
    // The store tells when each file is complete, which separates the CSV phase of an export from
    // the event recording that follows it in the same transaction.
    const local = createLocalFileStore(config.filesDir);
    const csvWrittenAt = new Map<string, number>();
    const store: FileStore = {
      ...local,
      async write(key, source) {
        const bytes = await local.write(key, source);
        csvWrittenAt.set(path.basename(key), performance.now());
        return bytes;
      },
    };
    const files = createFilesService({ db, config, store, clock: systemClock });
    const { team_id: teamId, user_id: userId } = await base.services.identity.createUserWithTeam({
      email: 'files@example.test',
      teamName: 'Files',
    });
    const rows: BenchRow[] = [];
    try {
      const csvPath = path.join(dir, 'contacts.csv');
      await writeLines(csvPath, csvLines(ROWS));
      const list = await base.services.lists.createList(teamId, 'Bench import');

      let started = performance.now();
      const part: UploadPart = {
        type: 'file',
        fieldname: 'file',
        filename: 'contacts.csv',
        file: createReadStream(csvPath),
      };
      const uploaded = await files.imports.upload(
        { teamId, userId },
        (async function* () {
          yield part;
        })(),
      );
      log(`  upload + inspection: ${ROWS} rows in ${Math.round(performance.now() - started)} ms`);

      // COPY baseline into a copy of the table with the same indexes (a fresh, empty table, like the import's).
      // LIKE copies columns, defaults, the generated search column and every index; the foreign keys are
      // added so COPY checks the same references the import's inserts do.
      await sql`
        create table leads_copy (like leads including all);
        alter table leads_copy
          add foreign key (team_id) references teams (id),
          add foreign key (team_id, list_uuid) references lists (team_id, uuid),
          add foreign key (team_id, pipeline_stage_uuid) references pipeline_stages (team_id, uuid);
      `.execute(db);
      const stage = await selectInitialStageUuid(db, teamId, 'lead');
      const copyList = await base.services.lists.createList(teamId, 'Bench COPY');
      const client = await pool.connect();
      started = performance.now();
      try {
        await pipeline(
          Readable.from(copyLines(ROWS, teamId, copyList.uuid, stage)),
          client.query(
            copyFrom(
              'copy leads_copy (team_id, uuid, list_uuid, pipeline_stage_uuid, name, first_name, last_name, company_name, position, linkedin, work_email, work_phone_number, raw_address) from stdin',
            ),
          ),
        );
      } finally {
        client.release();
      }
      const copySeconds = (performance.now() - started) / 1000;
      log(`  COPY: ${ROWS} rows in ${copySeconds.toFixed(1)} s (${Math.round(ROWS / copySeconds)} rows/s)`);
      await sql`drop table leads_copy`.execute(db);

      const worker = await startWorker({
        db,
        pool,
        jobs: [importJobHandler({ db, store: files.store }), exportJobHandler({ db, store: files.store })],
        ...config.worker,
        pollIntervalMs: 100,
        log: createLogger('warn'),
      });
      try {
        started = performance.now();
        await files.imports.importLeads({ teamId, userId }, uploaded.uuid, {
          columns: [
            { source: 'First Name', target: 'first_name' },
            { source: 'Last Name', target: 'last_name' },
            { source: 'Email', target: 'email' },
            { source: 'Company', target: 'company_name' },
            { source: 'Title', target: 'position' },
            { source: 'LinkedIn', target: 'linkedin_id' },
            { source: 'Phone', target: 'phone' },
            { source: 'Location', target: 'location' },
          ],
          list_uuid: list.uuid,
        });
        let record = await files.imports.getImport(teamId, uploaded.uuid);
        while (record.status !== 'done' && record.status !== 'failed') {
          await new Promise((resolve) => setTimeout(resolve, 200));
          record = await files.imports.getImport(teamId, uploaded.uuid);
        }
        const importSeconds = (performance.now() - started) / 1000;
        if (record.status !== 'done' || record.created_count !== ROWS) {
          throw new Error(
            `import ended ${record.status} with ${record.created_count} created: ${record.error}`,
          );
        }
        const importRate = ROWS / importSeconds;
        const copyRate = ROWS / copySeconds;
        log(`  import: ${ROWS} rows in ${importSeconds.toFixed(1)} s (${Math.round(importRate)} rows/s)`);
        rows.push({
          scenario: 'files',
          metric: `CSV import, ${ROWS.toLocaleString('en-US')} new contacts (rows/s vs COPY)`,
          value: importRate,
          baseline: copyRate,
          unit: 'rows/s',
          goal: '>= 50% of COPY',
          pass: importRate >= copyRate * 0.5,
        });

        await sql`vacuum analyze leads`.execute(db);
        // A tenth of the contacts first, then all of them: memory that grew with rows would show.
        const tenth = await sql<{ uuid: string }>`
          select uuid from leads where team_id = ${teamId} order by uuid limit ${Math.round(ROWS / 10)}
        `.execute(db);
        for (const [size, filter] of [
          [tenth.rows.length, { ids: tenth.rows.map((row) => row.uuid) }],
          [ROWS, { all: true }],
        ] as const) {
          const before = process.memoryUsage().rss;
          const peak = peakRss();
          started = performance.now();
          const created = await files.exports.createExport({ teamId, userId }, 'contact_export_csv', {
            filter,
          });
          let exported = await files.exports.getExport(teamId, created.uuid);
          while (exported.status !== 'done' && exported.status !== 'failed') {
            await new Promise((resolve) => setTimeout(resolve, 100));
            exported = await files.exports.getExport(teamId, created.uuid);
          }
          const seconds = (performance.now() - started) / 1000;
          const rss = peak();
          if (exported.status !== 'done' || exported.rows_count !== size) {
            throw new Error(
              `export ended ${exported.status} with ${exported.rows_count} rows: ${exported.error}`,
            );
          }
          const csvSeconds = (csvWrittenAt.get(exported.file_name!)! - started) / 1000;
          log(
            `  export ${size}: CSV written after ${csvSeconds.toFixed(1)} s (${Math.round(size / csvSeconds)} rows/s), ` +
              `done with events after ${seconds.toFixed(1)} s (${Math.round(size / seconds)} rows/s); ` +
              `${Math.round((exported.size_bytes ?? 0) / 1e6)} MB; peak RSS ${Math.round(rss / 1e6)} MB ` +
              `(${Math.round(before / 1e6)} MB before)`,
          );
          const label = `export ${size.toLocaleString('en-US')} contacts`;
          rows.push(
            {
              scenario: 'files',
              metric: `${label}: CSV streamed (rows/s)`,
              value: size / csvSeconds,
              unit: 'rows/s',
              ...(size === ROWS ? { goal: '>= 50,000/s', pass: size / csvSeconds >= 50_000 } : {}),
            },
            {
              scenario: 'files',
              metric: `${label}: done incl. contact_exported events (rows/s)`,
              value: size / seconds,
              unit: 'rows/s',
            },
            { scenario: 'files', metric: `${label}: process peak RSS`, value: rss / 1e6, unit: 'MB' },
          );
        }
      } finally {
        await worker.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
