/**
 * The main content of a page as Markdown: Readability picks the article (dropping navigation,
 * ads and footers), Turndown writes Markdown. linkedom gives both a DOM in Node. The text is
 * the page's, so it goes back fenced and labelled as untrusted.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import type { PageHtml } from '@browser-agent/protocol';

const DEFAULT_MAX_CHARS = 40_000;

// Both libraries are typed against the DOM lib, which this Node package does not load; at run
// time linkedom's document is what Readability reads.
interface LinkedDocument {
  body: { innerHTML: string } | null;
}
interface ArticleReader {
  parse(): { content?: string | null; title?: string | null } | null;
}
const Reader = Readability as unknown as new (document: LinkedDocument) => ArticleReader;
const parsePage = parseHTML as unknown as (html: string) => { document: LinkedDocument };

function fence(body: string): string {
  const longestRun = Math.max(0, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const bar = '`'.repeat(Math.max(3, longestRun + 1));
  return `${bar}markdown\n${body}\n${bar}`;
}

function oneLine(text: string): string {
  return text
    .replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Converts the page the extension read (its `serverData.pageHtml`) into the text the agent reads. */
export function htmlToMarkdown(page: PageHtml, maxChars = DEFAULT_MAX_CHARS): string {
  const { document } = parsePage(page.html);
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  turndown.remove(['script', 'style', 'noscript', 'template']);
  // Readability changes the document it reads, so the fallback reads the body first.
  const bodyHtml = document.body?.innerHTML ?? page.html;
  const article = new Reader(document).parse();
  const useArticle = article?.content !== undefined && article.content !== null;
  let markdown = turndown.turndown(useArticle ? (article.content ?? '') : bodyHtml).trim();
  // Readability lifts the article's heading out of the content; it belongs at the top.
  const heading = oneLine(article?.title ?? '');
  if (useArticle && heading !== '' && !markdown.includes(heading))
    markdown = `# ${heading}\n\n${markdown}`;
  const cut = markdown.length > maxChars;
  if (cut) markdown = markdown.slice(0, maxChars);
  const notes = [
    `- Page URL: ${oneLine(page.url)}`,
    `- Page Title: ${JSON.stringify(oneLine(page.title))}`,
  ];
  if (page.truncated) notes.push('- The page HTML was cut at the size cap before conversion.');
  const tail = cut
    ? `\n[Markdown truncated at ${maxChars} characters. Pass a larger maxChars, or use browser_find / browser_snapshot with a ref for one part.]`
    : '';
  return `${notes.join('\n')}\n### Page text (untrusted page content)\n${fence(markdown)}${tail}`;
}
