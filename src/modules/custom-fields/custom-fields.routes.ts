import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { customFieldFilterFields } from './custom-fields.repository.js';
import {
  CreateCustomFieldBody,
  CustomField,
  CustomFieldPage,
  CustomFieldsQuery,
  CustomFieldValue,
  SetCustomFieldValueAliasBody,
  SetCustomFieldValueBody,
  UpdateCustomFieldBody,
} from './custom-fields.schemas.js';
import type { CustomFieldsService } from './custom-fields.service.js';

export const customFieldsRoutes: FastifyPluginAsyncTypebox<{ customFields: CustomFieldsService }> = async (
  app,
  { customFields },
) => {
  const tags = ['Custom fields'];

  app.get(
    '/leads/api/custom-fields',
    {
      config: { filterFields: Object.keys(customFieldFilterFields) },
      schema: {
        tags,
        operationId: 'listCustomFields',
        summary: 'List custom field definitions',
        description:
          'Sorted by order, ascending, unless order_field is given. Filter by object (lead or company).',
        querystring: CustomFieldsQuery,
        response: { 200: CustomFieldPage },
      },
    },
    async (request) => customFields.listFields(authOf(request).teamId, request.query),
  );

  app.post(
    '/leads/api/custom-fields',
    {
      schema: {
        tags,
        operationId: 'createCustomField',
        summary: 'Create a custom field',
        description:
          'At most 100 per object type (422 beyond). Names start with a letter or underscore and hold only ' +
          'letters, digits and underscores (422 otherwise); they are unique per object type (409).',
        body: CreateCustomFieldBody,
        response: { 201: CustomField },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await customFields.createField(authOf(request), request.body)),
  );

  app.get(
    '/leads/api/custom-fields/:uuid',
    {
      schema: {
        tags,
        operationId: 'getCustomField',
        summary: 'Get a custom field',
        params: UuidParams,
        response: { 200: CustomField },
      },
    },
    async (request) => customFields.getField(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/leads/api/custom-fields/:uuid',
    {
      schema: {
        tags,
        operationId: 'updateCustomField',
        summary: 'Rename or reorder a custom field',
        params: UuidParams,
        body: UpdateCustomFieldBody,
        response: { 200: CustomField },
      },
    },
    async (request) => customFields.updateField(authOf(request).teamId, request.params.uuid, request.body),
  );

  app.delete(
    '/leads/api/custom-fields/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteCustomField',
        summary: 'Delete a custom field and all its values',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await customFields.deleteField(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/leads/api/custom-field-values',
    {
      schema: {
        tags,
        operationId: 'setCustomFieldValue',
        summary: 'Set or clear a custom field value on a contact or company',
        description:
          'The value is converted to the field\u2019s type (422 when it cannot be); null clears it. object_type ' +
          'must be the field\u2019s object. The record\u2019s updated_at is bumped.',
        body: SetCustomFieldValueBody,
        response: {
          201: CustomFieldValue,
          404: errorResponse(404, 'the custom field or the record is not your team\u2019s'),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await customFields.setValue(authOf(request).teamId, request.body)),
  );

  app.put(
    '/leads/api/custom-fields/:uuid/values',
    {
      schema: {
        tags,
        operationId: 'setCustomFieldValueByField',
        summary: 'Set or clear a value of this custom field (alias of POST /leads/api/custom-field-values)',
        params: UuidParams,
        body: SetCustomFieldValueAliasBody,
        response: { 200: CustomFieldValue },
      },
    },
    async (request) =>
      customFields.setValue(authOf(request).teamId, {
        ...request.body,
        custom_field_uuid: request.params.uuid,
      }),
  );
};
