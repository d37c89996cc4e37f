import { t } from '@lingui/core/macro';
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ExchangeCurrency } from '#shared/schemas/exchange';
import { useLocale } from '#web/features/language';

interface CurrencySelectProps {
  label: string;
  currencies: ExchangeCurrency[];
  value: string;
  onChange: (ticker: string) => void;
  disabled?: boolean;
  error?: string | undefined;
}

function matches(currency: ExchangeCurrency, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || currency.ticker.includes(q) || currency.name.toLowerCase().includes(q);
}

/**
 * A searchable select (WAI-ARIA combobox with a listbox popup): type to filter by name or ticker,
 * arrows to move, Enter to choose, Escape to close. Leaving the field keeps the chosen currency.
 */
export function CurrencySelect({ label, currencies, value, onChange, disabled, error }: CurrencySelectProps) {
  useLocale();
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const errorId = `${id}-error`;
  const selected = currencies.find((c) => c.ticker === value);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);

  const options = useMemo(() => currencies.filter((c) => matches(c, query)), [currencies, query]);
  const display = open ? query : selected ? `${selected.name} (${selected.ticker.toUpperCase()})` : '';

  const choose = (ticker: string) => {
    onChange(ticker);
    setOpen(false);
    setQuery('');
  };

  const openList = () => {
    if (disabled) return;
    setOpen(true);
    setQuery('');
    setActive(
      Math.max(
        0,
        currencies.findIndex((c) => c.ticker === value),
      ),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) return openList();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (options.length === 0 ? 0 : (i + step + options.length) % options.length));
    } else if (event.key === 'Enter') {
      if (open) {
        event.preventDefault();
        const option = options[active];
        if (option) choose(option.ticker);
      }
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        setOpen(false);
        setQuery('');
      }
    }
  };

  const activeOption = open ? options[active] : undefined;

  return (
    <div className="field currency-select">
      <label htmlFor={inputId}>{label}</label>
      <div className="currency-select-control">
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeOption ? `${listId}-${activeOption.ticker}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          placeholder={open ? t`Search by name or ticker` : t`Choose a currency`}
          value={display}
          disabled={disabled}
          onFocus={openList}
          onClick={() => !open && openList()}
          onChange={(e) => {
            setQuery(e.target.value);
            setOpen(true);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            setOpen(false);
            setQuery('');
          }}
        />
        {open && (
          <ul id={listId} role="listbox" aria-label={label} className="currency-options">
            {options.length === 0 ? (
              <li className="currency-option-empty" role="presentation">
                {t`No currency matches “${query}”`}
              </li>
            ) : (
              options.map((c, i) => (
                <li
                  key={c.ticker}
                  id={`${listId}-${c.ticker}`}
                  role="option"
                  aria-selected={c.ticker === value}
                  className={`currency-option${i === active ? ' currency-option-active' : ''}`}
                  // mousedown, not click: it fires before the input's blur closes the list.
                  onMouseDown={(e) => {
                    e.preventDefault();
                    choose(c.ticker);
                    inputRef.current?.blur();
                  }}
                  onMouseEnter={() => setActive(i)}
                >
                  <span className="currency-ticker">{c.ticker.toUpperCase()}</span>
                  <span>{c.name}</span>
                  {c.hasExternalId && <span className="muted currency-memo">{t`needs ${c.externalIdName?.toLowerCase() ?? ''}`}</span>}
                </li>
              ))
            )}
          </ul>
        )}
      </div>
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
