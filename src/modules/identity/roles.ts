// Identity constants other code (the CLI's usage text) reads without loading the identity service.

/** Roles of a team member: the owner (who created the team) and members. */
export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** The name of the API key `leadflow demo` creates: its user does not count as the owner. */
export const DEMO_KEY_NAME = 'demo';
