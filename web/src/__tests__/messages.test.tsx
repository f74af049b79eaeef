import { describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { ListMessages } from '../components/ListParts';
import { NOTICE_MS } from '../components/Notice';
import { hasMoreBelow } from '../layout/MainLayout/Drawer/DrawerContent';
import { bannerMessage } from '../utils/validation';

describe('success and error messages', () => {
  it('a success notice fades by itself: it asks to be cleared after NOTICE_MS', () => {
    vi.useFakeTimers();
    try {
      const onCloseNotice = vi.fn();
      render(
        <ListMessages
          name="trunk"
          error=""
          notice="Trunk Main created."
          onCloseError={vi.fn()}
          onCloseNotice={onCloseNotice}
        />
      );
      expect(screen.getByTestId('trunk-notice').textContent).toContain('Trunk Main created.');
      act(() => vi.advanceTimersByTime(NOTICE_MS - 100));
      expect(onCloseNotice).not.toHaveBeenCalled();
      act(() => vi.advanceTimersByTime(200));
      expect(onCloseNotice).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an error stays and wins over a notice', () => {
    render(
      <ListMessages
        name="trunk"
        error="Name is taken."
        notice="Trunk Main created."
        onCloseError={vi.fn()}
        onCloseNotice={vi.fn()}
      />
    );
    expect(screen.getByTestId('trunk-error').textContent).toContain('Name is taken.');
    expect(screen.queryByTestId('trunk-notice')).toBeNull();
  });

  it('a refusal the form shows on a field is not repeated in the banner', () => {
    const wrong = {
      message: 'The current password is incorrect.',
      errors: { current_password: ['The current password is incorrect.'] }
    };
    expect(bannerMessage(wrong, ['current_password', 'new_password'], 'Not changed.')).toBe('');
    expect(bannerMessage({ message: 'Too many attempts.' }, ['current_password'], 'Not changed.')).toBe(
      'Too many attempts.'
    );
    expect(bannerMessage({ errors: { other: ['x'] } }, ['current_password'], 'Not changed.')).toBe('Not changed.');
  });
});

describe('sidebar scroll cue', () => {
  it('shows while more menu lies below what is visible', () => {
    expect(hasMoreBelow({ scrollTop: 0, clientHeight: 700, scrollHeight: 1100 })).toBe(true);
    expect(hasMoreBelow({ scrollTop: 398, clientHeight: 700, scrollHeight: 1100 })).toBe(false);
    expect(hasMoreBelow({ scrollTop: 0, clientHeight: 700, scrollHeight: 700 })).toBe(false);
    expect(hasMoreBelow(null)).toBe(false);
  });
});
