import { Type } from 'typebox';
import { DateTime, Envelope, ListQuery, Nullable, Uuid, withExample } from '../../../http/schemas.js';
import { trackingDomainSort } from './tracking-domains.repository.js';

export const TrackingDomain = Type.Object(
  {
    uuid: Uuid(),
    team_id: Type.Integer({ description: 'Team' }),
    domain: Type.String({ description: 'The host the team points at Leadflow (track.example.com)' }),
    status: Type.Enum(['pending', 'verified', 'failed'], {
      description:
        'pending: not checked yet; verified: its CNAME points at cname_target, so e-mails of mailboxes that use ' +
        'it carry links on it; failed: the last check did not find that (see error)',
    }),
    cname_target: Type.String({ description: 'What the CNAME record of domain must point at (this server)' }),
    cname_found: Type.Array(Type.String(), { description: 'The CNAME targets the last check found' }),
    error: Nullable(Type.String({ description: 'Why the last check failed' })),
    verified_at: Nullable(DateTime('When the last check succeeded')),
    checked_at: Nullable(DateTime('When DNS was last asked')),
    dns: Type.Object(
      {
        cname: Type.Object({
          expected: Type.String({ description: 'cname_target' }),
          found: Type.Array(Type.String(), { description: 'cname_found' }),
          ok: Type.Boolean({ description: 'The CNAME is verified' }),
        }),
      },
      {
        description:
          'DNS status per record kind (Leadflow checks the CNAME; DKIM/SPF/DMARC are the mailbox\u2019s)',
      },
    ),
    created_at: DateTime('When it was added'),
    updated_at: DateTime('When it last changed'),
  },
  { title: 'CustomTrackingDomain' },
);

export const TrackingDomainPage = Envelope(TrackingDomain);
export const TrackingDomainsQuery = ListQuery(trackingDomainSort);

export const CreateTrackingDomainBody = Type.Object(
  {
    domain: Type.String({
      minLength: 4,
      maxLength: 253,
      pattern: '^\\s*(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}\\.?\\s*$',
      description: 'A host of your domain (track.example.com) whose CNAME you point at cname_target',
    }),
  },
  { additionalProperties: false },
);
withExample(CreateTrackingDomainBody, { domain: 'track.example.com' });
