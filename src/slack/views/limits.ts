/**
 * Slack's limits that memdoctor's messages, buttons and modals run into, from Block Kit's reference;
 * every view and payload codec takes them from here.
 */
export const LIMITS = {
  blocksPerMessage: 50,
  blocksPerModal: 100,
  sectionText: 3000,
  headerText: 150,
  buttonText: 75,
  /** A button's `value`: every payload codec packs within it. */
  buttonValue: 2000,
  actionsElements: 25,
  contextText: 3000,
  /** `block_id` and `action_id`. */
  blockId: 255,
  /** A modal's `private_metadata`. */
  privateMetadata: 3000,
  /** A plain-text input's `max_length`. */
  plainTextInput: 3000,
  /** The fallback `text` of a message; Slack cuts at 40k, notifications need far less. */
  fallbackText: 3000,
} as const;
