import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

/** A secret (API key, signing secret, invite link) shown once, with a copy button. */
export function ShownOnce(props: {
  title: string;
  value: string | undefined;
  note: string;
  onClose: () => void;
}) {
  return (
    <Modal opened={props.value !== undefined} onClose={props.onClose} title={props.title} size="lg">
      <Stack>
        <Alert color="yellow">{props.note}</Alert>
        {/* A read-only textbox: a <pre> may not carry a name of its own (axe aria-prohibited-attr). */}
        <Code
          block
          role="textbox"
          aria-readonly="true"
          aria-label={props.title}
          style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
        >
          {props.value}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={props.value ?? ''}>
            {({ copied, copy }) => (
              <Button onClick={copy} color={copied ? 'teal' : undefined}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={props.onClose}>
            Done
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Leadflow keeps only a hash: once this dialog closes, the value cannot be shown again.
        </Text>
      </Stack>
    </Modal>
  );
}
