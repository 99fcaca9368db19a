// Tree validation with the checks that need the team's records: references (tags, lists, senders,
// flows...) and contact filters (compiled with the team's contact fields). One 422 lists everything.
import type { Executor } from '../../../db/database.js';
import { AppError } from '../../../lib/errors.js';
import { loadLeadFilterSpec } from '../../leads/leads.filter.js';
import { compileSelection } from '../../leads/leads.selection.js';
import { missingReferences, type ReferenceCheckers, type ReferenceUse } from './references.js';
import type { FilterUse, Problem } from './tree-validation.js';

/** Problems of the references and contact filters of a tree, node or contact source. */
export async function teamProblems(
  db: Executor,
  teamId: number,
  uses: { references: ReferenceUse[]; filters: FilterUse[] },
  checkers: ReferenceCheckers,
): Promise<Problem[]> {
  const problems = await missingReferences(db, teamId, uses.references, checkers);
  if (uses.filters.length > 0) {
    const spec = await loadLeadFilterSpec(db, teamId);
    for (const use of uses.filters) {
      try {
        compileSelection(spec, use.filter, use.path);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const paths = Object.keys(error.data);
        for (const path of paths.length > 0 ? paths : [use.path]) {
          problems.push({ path, message: `${use.label}: ${error.message}` });
        }
      }
    }
  }
  return problems;
}

/** Throws one 422 listing every problem (by path), or returns when there are none. */
export function assertNoProblems(problems: Problem[]): void {
  if (problems.length === 0) return;
  const data: Record<string, string[]> = {};
  for (const { path, message } of problems) {
    const messages = data[path] ?? [];
    if (!messages.includes(message)) messages.push(message);
    data[path] = messages;
  }
  const count = Object.values(data).reduce((total, messages) => total + messages.length, 0);
  const first = problems[0]!.message;
  throw new AppError(
    'validation_error',
    count > 1 ? `${first} (and ${count - 1} more problem${count > 2 ? 's' : ''}; see data)` : first,
    data,
  );
}
