// The campaign page's address: `/campaign/12` shows its first tab (settings), `/campaign/12/targets`
// another; each tab a URL of its own, so a tab can be shared and Back returns to the one before.

export const CAMPAIGN_LIST = '/campaign';

/** The page of campaign `id`, at `tab` (none: the first tab). */
export function campaignPath(id: number, tab?: string): string {
  return tab ? `${CAMPAIGN_LIST}/${id}/${tab}` : `${CAMPAIGN_LIST}/${id}`;
}

/** The tab the URL's `:tab` names among `tabs` (none: the first); null when it names none of them. */
export function tabOf(tabs: readonly string[], tab: string | undefined): string | null {
  if (tab === undefined) return tabs[0] ?? null;
  return tabs.includes(tab) ? tab : null;
}
