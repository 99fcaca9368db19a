import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';

/** A confirmation dialog for an action that cannot be undone; it states what will happen. */
export function useConfirm() {
  const [pending, setPending] = useState<{ message: ReactNode; action: string; run: () => void }>();
  const dialog = (
    <Modal opened={pending !== undefined} onClose={() => setPending(undefined)} title="Please confirm">
      <Stack>
        <Text>{pending?.message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setPending(undefined)}>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() => {
              pending?.run();
              setPending(undefined);
            }}
          >
            {pending?.action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
  return {
    dialog,
    confirm: (message: ReactNode, action: string, run: () => void) => setPending({ message, action, run }),
  };
}
