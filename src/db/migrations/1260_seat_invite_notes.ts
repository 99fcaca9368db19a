import { type Kysely, sql } from 'kysely';

// A LinkedIn seat's invitation policy: whether the account is known to be Premium (notes up to 300
// characters and no monthly note quota; otherwise 200 characters and about 5 personalised invitations per
// month), what a note quota does to an invitation (fail the step, or send it without the note), how many
// notes a free account may send per 30 days, when each note went out (the last 30 days are kept: the
// quota is predicted, not discovered) and when LinkedIn last refused a note (asked for Premium).
export async function up(db: Kysely<unknown>): Promise<void> {
  // Constraints named and added one per statement: Citus refuses ADD COLUMN with an unnamed constraint and
  // ADD CONSTRAINT beside other subcommands.
  await sql`
    alter table linkedin_browsers
      add column linkedin_premium boolean not null default false,
      add column note_quota_action text not null default 'fail',
      add column free_notes_per_month smallint not null default 5,
      add column notes_sent_at timestamptz[] not null default '{}',
      add column note_quota_refused_at timestamptz;
    alter table linkedin_browsers add constraint linkedin_browsers_note_quota_action_check
      check (note_quota_action in ('fail', 'send_without_note'));
    alter table linkedin_browsers add constraint linkedin_browsers_free_notes_per_month_check
      check (free_notes_per_month between 0 and 100);
  `.execute(db);
}
