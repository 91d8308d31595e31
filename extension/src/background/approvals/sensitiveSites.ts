/**
 * Sites where an agent always asks first, whatever its permission mode (issue #19): where one
 * wrong click moves money, hands over an identity or unlocks every other account. The user
 * edits the list in the side panel (Permissions → Sensitive sites); this is its default.
 * Patterns follow `siteMatches` (protocol/src/permissions.ts): `bank.com` covers its subdomains.
 * docs/permissions.md lists the same groups.
 */
export const DEFAULT_SENSITIVE_SITES: readonly string[] = [
  // Banking
  'chase.com',
  'bankofamerica.com',
  'wellsfargo.com',
  'citi.com',
  'capitalone.com',
  'usbank.com',
  'hsbc.com',
  'barclays.co.uk',
  'lloydsbank.com',
  'santander.com',
  'ing.com',
  'bnpparibas.net',
  'credit-agricole.fr',
  'deutsche-bank.de',
  'sparkasse.de',
  'revolut.com',
  'monzo.com',
  'n26.com',
  'americanexpress.com',
  // Payments
  'paypal.com',
  'venmo.com',
  'cash.app',
  'wise.com',
  'klarna.com',
  'pay.google.com',
  'dashboard.stripe.com',
  'squareup.com',
  // Brokerage
  'schwab.com',
  'fidelity.com',
  'vanguard.com',
  'etrade.com',
  'robinhood.com',
  'interactivebrokers.com',
  'trading212.com',
  // Crypto exchanges and wallets
  'coinbase.com',
  'binance.com',
  'kraken.com',
  'crypto.com',
  'gemini.com',
  'bitstamp.net',
  'kucoin.com',
  'okx.com',
  'bybit.com',
  // Government identity and tax
  'login.gov',
  'id.me',
  'irs.gov',
  'ssa.gov',
  'account.gov.uk',
  'franceconnect.gouv.fr',
  'impots.gouv.fr',
  'elster.de',
  'my.gov.au',
  // Password managers
  '1password.com',
  'bitwarden.com',
  'lastpass.com',
  'dashlane.com',
  'keepersecurity.com',
  'account.proton.me',
  // The browser's and the big platforms' own account pages
  'accounts.google.com',
  'myaccount.google.com',
  'passwords.google.com',
  'account.microsoft.com',
  'login.live.com',
  'appleid.apple.com',
  'account.apple.com',
  'accounts.firefox.com',
];
