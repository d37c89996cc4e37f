import { useId, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import './side-nav.css';

export type SideNavLink = {
  to: string;
  label: string;
  /** Current only on this exact address (an overview whose address prefixes every other one). */
  end?: boolean;
  /** Other addresses that belong to this section (one payment belongs to the wallet). */
  also?: readonly string[];
};
export type SideNavGroup = { title?: string; links: readonly SideNavLink[] };

/** The link the address belongs to: the longest one that starts it (an `end` link only on its own address). */
export function currentLink(groups: readonly SideNavGroup[], pathname: string): SideNavLink | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  const under = (base: string) => path === base || path.startsWith(`${base}/`);
  let best: { link: SideNavLink; length: number } | undefined;
  for (const link of groups.flatMap((g) => g.links)) {
    const bases = [link.to, ...(link.also ?? [])].filter((base) => (link.end && base === link.to ? path === base : under(base)));
    for (const base of bases) if (!best || base.length > best.length) best = { link, length: base.length };
  }
  return best?.link;
}

const isAt = (to: string, pathname: string) => (pathname.replace(/\/+$/, '') || '/') === to;

/**
 * A page with a side navigation of sections (grouped or not) beside its content. At 900 px and below the
 * navigation gives way to one menu naming the current section: a phone gets no rows of tabs
 * (docs/decisions/0321-dashboard-shell.md).
 */
export function SideNavLayout({
  label,
  menuLabel,
  groups,
  children,
  className,
  before,
}: {
  /** The navigation landmark's name, e.g. "Settings sections". */
  label: string;
  /** The phone menu's name, e.g. "Settings section". */
  menuLabel: string;
  groups: readonly SideNavGroup[];
  children: ReactNode;
  className?: string;
  /** Shown above the navigation, e.g. a way back to where it was opened from. */
  before?: ReactNode;
}) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = currentLink(groups, pathname);
  const grouped = groups.some((g) => g.title);
  // Ids from React rather than from the titles: a title in Cyrillic has no \w characters to make one of.
  const idBase = useId();
  const groupId = (i: number) => `${idBase}-group-${i}`;
  return (
    <div className={`side-nav-layout${className ? ` ${className}` : ''}`}>
      <nav aria-label={label} className="side-nav">
        {before}
        {groups.map((group, i) => (
          <div key={group.title ?? i} className="side-nav-group">
            {group.title && (
              <p className="side-nav-group-title" id={groupId(i)}>
                {group.title}
              </p>
            )}
            <ul aria-labelledby={group.title ? groupId(i) : undefined}>
              {group.links.map((link) => (
                <li key={link.to}>
                  {/* "page" on the section's own address, "location" inside it (one payment in the wallet). */}
                  <Link to={link.to} aria-current={link === current ? (isAt(link.to, pathname) ? 'page' : 'location') : undefined}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      {/* Named by aria-label, not a wrapping label: a label's text would take in every option's. */}
      <div className="side-nav-menu">
        <select aria-label={menuLabel} value={current?.to ?? ''} onChange={(e) => void navigate(e.target.value)}>
          {!current && <option value="">{label}</option>}
          {grouped
            ? groups.map((group, i) => (
                <optgroup key={group.title ?? i} label={group.title ?? label}>
                  {group.links.map((link) => (
                    <option key={link.to} value={link.to}>
                      {link.label}
                    </option>
                  ))}
                </optgroup>
              ))
            : groups
                .flatMap((g) => g.links)
                .map((link) => (
                  <option key={link.to} value={link.to}>
                    {link.label}
                  </option>
                ))}
        </select>
      </div>
      <div className="side-nav-content">{children}</div>
    </div>
  );
}
