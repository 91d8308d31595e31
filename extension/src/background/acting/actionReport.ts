import type { CdpClient } from '../cdp';
import { formatPageInfo, pageInfo, type PageInfo } from '../loading/pageInfo';
import type { SettleOutcome } from '../loading/settle';

/**
 * What an action did, where the page is now (`known`: as the quiet check's look read it,
 * earlyLook.ts; else asked now), and whether it navigated.
 */
export async function actionReport(
  cdp: CdpClient,
  done: string,
  outcome: SettleOutcome,
  known?: PageInfo,
): Promise<string> {
  const info = known ?? (await pageInfo(cdp));
  const navigation = outcome.stillLoading
    ? 'A navigation started and is still loading.'
    : outcome.navigated
      ? 'The page navigated.'
      : 'No navigation.';
  return `${done}\n${navigation}\n${formatPageInfo(info)}`;
}
