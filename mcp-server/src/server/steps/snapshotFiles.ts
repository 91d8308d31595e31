/**
 * browser_snapshot `filename`: the snapshot is written to a new Markdown file in the output
 * directory instead of into the agent's context, and the result says where. Where and how it
 * is created (inside the directory, no dotfile, no link, never replacing a file) is
 * outputFiles/newFile.ts's job; this names the file.
 */

/** A name without a text extension gets `.md`. */
export function snapshotName(file: string): string {
  return /\.(md|markdown|txt|ya?ml)$/i.test(file) ? file : `${file}.md`;
}
