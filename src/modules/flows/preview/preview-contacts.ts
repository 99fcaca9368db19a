// Which contacts a preview runs: the ones asked for, else a sample of what the flow's sources would
// enroll (their filters), else of the contacts already in the flow, else the team's newest contacts.
// Blacklisted contacts are left out, as enrollment leaves them out.
import { type SqlBool, sql } from 'kysely';
import type { Database } from '../../../db/database.js';
import { AppError, invalidField } from '../../../lib/errors.js';
import type { CompiledVersion } from '../../engine/index.js';
import { loadLeadFilterSpec } from '../../leads/leads.filter.js';
import { massActionWhere } from '../../leads/leads.mass-actions.js';
import type { LeadRow } from '../../leads/leads.present.js';
import type { PreviewBody } from './preview.schemas.js';

export type PickedContacts = {
  leads: LeadRow[];
  source: 'contacts' | 'filter_sources' | 'enrolled' | 'team';
  leftOut: number;
  warnings: string[];
};

async function loadLeads(db: Database, teamId: number, uuids: string[]): Promise<LeadRow[]> {
  if (uuids.length === 0) return [];
  const rows = (await db
    .selectFrom('leads')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', 'in', uuids)
    .execute()) as LeadRow[];
  const order = new Map(uuids.map((uuid, i) => [uuid, i]));
  return rows.sort((a, b) => (order.get(a.uuid) ?? 0) - (order.get(b.uuid) ?? 0));
}

export async function pickContacts(
  db: Database,
  teamId: number,
  flowUuid: string,
  version: CompiledVersion,
  body: PreviewBody,
): Promise<PickedContacts> {
  const warnings: string[] = [];
  if (body.contacts) {
    const wanted = body.contacts.map((uuid) => uuid.toLowerCase());
    const leads = await loadLeads(db, teamId, wanted);
    if (leads.length < wanted.length) {
      const found = new Set(leads.map((l) => l.uuid));
      const missing = wanted.filter((uuid) => !found.has(uuid));
      throw invalidField(
        'contacts',
        `contacts: ${missing.slice(0, 5).join(', ')} ${missing.length > 1 ? 'are' : 'is'} not one of your contacts.`,
      );
    }
    const kept = leads.filter((l) => !l.is_blacklisted);
    return { leads: kept, source: 'contacts', leftOut: leads.length - kept.length, warnings };
  }
  const sample = body.sample ?? 100;
  const filters = [...version.sources.values()]
    .map((s) => (s as { mass_actions_filter?: unknown }).mass_actions_filter)
    .filter((f): f is object => f !== null && typeof f === 'object');
  let uuids: string[] = [];
  let source: PickedContacts['source'] = 'filter_sources';
  if (filters.length > 0) {
    const spec = await loadLeadFilterSpec(db, teamId);
    try {
      const where = filters
        .map((f) => massActionWhere(spec, f))
        .reduce((a, b) => sql<SqlBool>`(${a}) or (${b})`);
      const rows = await sql<{ uuid: string }>`
        select l.uuid from leads l where l.team_id = ${teamId} and (${where}) order by l.uuid limit ${sample}
      `.execute(db);
      uuids = rows.rows.map((r) => r.uuid);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  if (uuids.length === 0) {
    source = 'enrolled';
    const rows = await sql<{ uuid: string }>`
      select fl.lead_uuid as uuid from flow_leads fl join leads l on l.team_id = fl.team_id and l.uuid = fl.lead_uuid
      where fl.team_id = ${teamId} and fl.flow_uuid = ${flowUuid} and not l.is_blacklisted
      order by fl.created_at limit ${sample}
    `.execute(db);
    uuids = rows.rows.map((r) => r.uuid);
  }
  if (uuids.length === 0) {
    source = 'team';
    const rows = await sql<{ uuid: string }>`
      select uuid from leads where team_id = ${teamId} and not is_blacklisted order by created_at desc limit ${sample}
    `.execute(db);
    uuids = rows.rows.map((r) => r.uuid);
    warnings.push("No source of the flow names contacts yet: the preview runs the team's newest contacts.");
  } else if (source === 'enrolled') {
    warnings.push(
      'The preview runs contacts already in the flow from its entry node, as if they entered now.',
    );
  }
  return { leads: await loadLeads(db, teamId, uuids), source, leftOut: 0, warnings };
}
