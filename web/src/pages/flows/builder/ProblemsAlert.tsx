// The API's problems for one step or contact source, in its side panel.
import { Alert, List } from '@mantine/core';

export function ProblemsAlert({ problems }: { problems: string[] }) {
  if (problems.length === 0) return null;
  return (
    <Alert color="red" title="Problems" role="alert">
      <List size="sm">
        {problems.map((p) => (
          <List.Item key={p}>{p}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
