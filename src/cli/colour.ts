/**
 * When the CLI may write colour codes: only to a terminal, and not when NO_COLOR is set to anything but
 * the empty string (the convention of no-color.org). Piped output and files stay plain text.
 */
export function colourWanted(stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && (env.NO_COLOR ?? '') === '';
}

/** Whether NO_COLOR asks for no colour, wherever the output goes. */
export function noColourAsked(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.NO_COLOR ?? '') !== '';
}
