import { type Kysely, sql } from 'kysely';

// Indexes behind the companies API: every filter key and sort field of GET /leads/api/companies has an
// index led by team_id, and the contact ↔ company linking joins on indexed expressions both ways.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Sort fields (name, deal_size, employees_on_linkedin), each with the uuid tiebreaker of the pager.
    create index companies_team_name_sort_idx on companies (team_id, name, uuid);
    create index companies_team_deal_size_idx on companies (team_id, deal_size, uuid);
    create index companies_team_employees_idx on companies (team_id, employees_on_linkedin, uuid);

    -- Equality filters.
    create index companies_team_industry_idx on companies (team_id, lower(industry));
    create index companies_team_employees_range_idx on companies (team_id, employees_range);
    create index companies_team_status_idx on companies (team_id, status);
    create index companies_team_linkedin_status_idx on companies (team_id, linkedin_status);
    create index companies_team_data_source_idx on companies (team_id, data_source_uuid)
      where data_source_uuid is not null;
    create index companies_team_blacklisted_idx on companies (team_id) where is_blacklisted;

    -- A company known only by its name is deduplicated by name: unique among such companies so two
    -- concurrent creates of "Acme" (no LinkedIn, no domain) cannot both insert.
    create unique index companies_team_name_only_key on companies (team_id, lower(name))
      where name is not null and ln_id is null and linkedin is null and domain is null;

    -- Linking contacts to a new company by e-mail domain (company-links.ts): only unlinked contacts
    -- are candidates, so the index holds just those.
    create index leads_team_unlinked_email_domain_idx on leads (team_id, split_part(work_email, '@', 2))
      where company_uuid is null and work_email is not null;
  `.execute(db);
}
