import { type Kysely, sql } from 'kysely';

// Attachments: files uploaded once and sent with LinkedIn messages and e-mails. The bytes live in the
// file store (the CSV uploads' store) under `storage_key`; the row holds what was sniffed from them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table attachments (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      name text not null,
      storage_key text not null,
      size_bytes bigint not null,
      -- The MIME type sniffed from the content (never the client's word).
      mime_type text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index attachments_team_created_idx on attachments (team_id, created_at, uuid);
  `.execute(db);
}
