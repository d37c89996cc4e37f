/** Shapes of the marketing content files. Content is data; the pages only lay it out. */

export interface Job {
  /** Stable slug, used as the element id so a role can be linked to (/jobs#backend-engineer). */
  id: string;
  title: string;
  team: string;
  location: string;
  /** "Full-time", "Part-time" or "Contract", in the page's language. */
  type: string;
  summary: string;
  responsibilities: readonly string[];
  requirements: readonly string[];
  niceToHave?: readonly string[];
}

export interface PortfolioProject {
  id: string;
  title: string;
  summary: string;
  tags: readonly string[];
  outcomes: readonly string[];
}

export interface Review {
  id: string;
  quote: string;
  author: string;
  context: string;
  /** Whole stars, 1 to 5. */
  rating: 1 | 2 | 3 | 4 | 5;
}

export type ChangeKind = 'new' | 'improved' | 'fixed' | 'security';

export interface PatchNote {
  version: string;
  /** ISO date (YYYY-MM-DD) of the release. */
  date: string;
  title: string;
  changes: readonly { kind: ChangeKind; text: string }[];
}

export type LegalBlock = { kind: 'p'; text: string } | { kind: 'ul'; items: readonly string[] };

export interface LegalSection {
  /** Slug used as the element id and as the sub-path (/privacy/cookies scrolls to "cookies"). */
  id: string;
  title: string;
  blocks: readonly LegalBlock[];
}

export interface LegalDocument {
  title: string;
  /** ISO date (YYYY-MM-DD) the text last changed. */
  updated: string;
  intro: string;
  sections: readonly LegalSection[];
}
