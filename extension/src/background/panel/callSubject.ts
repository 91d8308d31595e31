import { findContract, type ToolContract } from '@browser-agent/protocol';

/**
 * What a call is about, in words, for its log line (`Wait for the text "Done"`): the tool's
 * contract says it (`logSubject`), from the call's arguments once they validate.
 */
export function callSubject(
  tool: string,
  params: unknown,
  contractOf: (tool: string) => ToolContract | undefined = findContract,
): string | undefined {
  const contract = contractOf(tool);
  if (contract?.logSubject === undefined) return undefined;
  const args = contract.input.safeParse(params);
  return args.success ? contract.logSubject(args.data) : undefined;
}
