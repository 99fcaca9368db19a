import { v5 as uuidv5 } from 'uuid';
import type { Database } from '../../db/database.js';
import { enqueueJob } from '../../jobs/queue.js';
import { AppError, conflict, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { coerceCustomFieldValue } from './custom-field-values.js';
import { stripDeletedCustomFieldJob } from './custom-fields.jobs.js';
import * as repo from './custom-fields.repository.js';
import type { CustomFieldObject, CustomFieldType } from './custom-fields.tables.js';

export const MAX_CUSTOM_FIELDS_PER_OBJECT = 100;
const NAME_RULE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAME_RULE_TEXT =
  'must start with a letter or an underscore and contain only letters (a-z, A-Z), digits and underscores';

/** Namespace of the value ids: a value's uuid is v5(field uuid + record uuid), stable across writes. */
const VALUE_NAMESPACE = '6d7c3d0e-5d1f-4c59-9b0e-3c1f5a2b8e41';

export function customFieldValueUuid(fieldUuid: string, recordUuid: string): string {
  return uuidv5(`${fieldUuid}:${recordUuid}`, VALUE_NAMESPACE);
}

const OBJECT_WORDS: Record<CustomFieldObject, string> = { lead: 'contacts', company: 'companies' };

function checkName(name: string): string {
  if (!NAME_RULE.test(name)) {
    throw invalidField('name', `name ${NAME_RULE_TEXT}; got ${JSON.stringify(name)}.`);
  }
  return name;
}

export type SetValueInput = {
  custom_field_uuid: string;
  object_type: CustomFieldObject;
  object_uuid: string;
  value?: unknown;
};

export function createCustomFieldsService(deps: { db: Database }) {
  const { db } = deps;

  async function nameTaken(teamId: number, object: CustomFieldObject, name: string) {
    const existing = await repo.selectCustomFieldByName(db, teamId, object, name);
    return conflict(
      `A custom field of ${OBJECT_WORDS[object]} named "${existing?.name ?? name}" already exists (names are case-insensitive).`,
      { name: ['already taken'], uuid: existing?.uuid },
    );
  }

  async function requireField(teamId: number, uuid: string) {
    const field = await repo.selectCustomField(db, teamId, uuid);
    if (!field) throw notFound('Custom field');
    return field;
  }

  return {
    /** Sorted by order, ascending, unless the caller picks a sort. */
    async listFields(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(
        { ...params, order_type: params.order_type ?? (params.order_field ? undefined : 'asc') },
        repo.customFieldSort,
      );
      const { rows, total } = await repo.selectCustomFields(db, teamId, params.filter, page);
      return envelope(rows, total, page);
    },

    getField: requireField,

    async createField(
      { teamId, userId }: { teamId: number; userId: number },
      input: { name: string; object: CustomFieldObject; type?: CustomFieldType; order?: number },
    ) {
      const name = checkName(input.name);
      const field = await db.transaction().execute(async (trx) => {
        await repo.lockCustomFieldCreation(trx, teamId, input.object);
        const count = await repo.countCustomFields(trx, teamId, input.object);
        if (count >= MAX_CUSTOM_FIELDS_PER_OBJECT) {
          throw invalidField(
            'object',
            `A team can have at most ${MAX_CUSTOM_FIELDS_PER_OBJECT} custom fields per object type and ${OBJECT_WORDS[input.object]} already have ${count}; delete one first.`,
          );
        }
        return repo.insertCustomField(trx, {
          team_id: teamId,
          uuid: newId(),
          user_id: userId,
          name,
          object: input.object,
          type: input.type ?? 'string',
          order: input.order,
        });
      });
      if (!field) throw await nameTaken(teamId, input.object, name);
      return field;
    },

    async updateField(
      teamId: number,
      uuid: string,
      input: { name?: string; order?: number; type?: CustomFieldType; object?: CustomFieldObject },
    ) {
      const current = await requireField(teamId, uuid);
      if (input.type !== undefined && input.type !== current.type) {
        throw invalidField(
          'type',
          `The type of a custom field cannot be changed (it is ${current.type}; its values are stored as such). Create a new field of type ${input.type} instead.`,
        );
      }
      if (input.object !== undefined && input.object !== current.object) {
        throw invalidField(
          'object',
          `The object of a custom field cannot be changed (it is ${current.object}).`,
        );
      }
      if (input.name === undefined && input.order === undefined) {
        throw invalidField('name', 'Give name and/or order to change.');
      }
      const changes: { name?: string; order?: number } = {};
      if (input.name !== undefined) changes.name = checkName(input.name);
      if (input.order !== undefined) changes.order = input.order;
      try {
        const field = await repo.updateCustomField(db, teamId, uuid, changes);
        if (!field) throw notFound('Custom field');
        return field;
      } catch (error) {
        if ((error as { code?: string }).code === '23505' && changes.name) {
          throw await nameTaken(teamId, current.object, changes.name);
        }
        throw error;
      }
    },

    /**
     * Deletes the definition now (its values stop showing at once, records are presented through the
     * definitions); a job queued in the same transaction strips the values from the records.
     */
    async deleteField(teamId: number, uuid: string) {
      await db.transaction().execute(async (trx) => {
        const field = await repo.deleteCustomField(trx, teamId, uuid);
        if (!field) throw notFound('Custom field');
        await enqueueJob(trx, stripDeletedCustomFieldJob, {
          teamId,
          object: field.object,
          fieldUuid: field.uuid,
        });
      });
    },

    /** Sets or (null) clears one value on a contact or company, typed by the field. */
    async setValue(teamId: number, input: SetValueInput) {
      return db.transaction().execute(async (trx) => {
        // Share-locked so a concurrent delete of the field cannot miss the value written here.
        const field = await repo.selectCustomField(trx, teamId, input.custom_field_uuid, 'share');
        if (!field) throw notFound('Custom field');
        if (field.object !== input.object_type) {
          throw new AppError(
            'validation_error',
            `Custom field "${field.name}" belongs to ${OBJECT_WORDS[field.object]}: object_type must be ${field.object} (got ${input.object_type}).`,
            { object_type: [`must be ${field.object}`] },
          );
        }
        const value = coerceCustomFieldValue(field, input.value, 'value');
        const record = await repo.setRecordCustomFieldValue(
          trx,
          teamId,
          field.object,
          input.object_uuid,
          field.uuid,
          value,
        );
        if (!record) throw notFound(field.object === 'lead' ? 'Contact' : 'Company');
        return {
          uuid: customFieldValueUuid(field.uuid, input.object_uuid),
          team_id: teamId,
          custom_field_uuid: field.uuid,
          object_type: field.object,
          object_uuid: input.object_uuid,
          value,
          created_at: record.updated_at,
          updated_at: record.updated_at,
        };
      });
    },
  };
}

export type CustomFieldsService = ReturnType<typeof createCustomFieldsService>;
