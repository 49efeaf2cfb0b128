import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@margins/common';
import { anonymousConfig } from '../../page-config.ts';
import { renderWithApp } from '../../test/render.tsx';
import { UpgradeLink } from './upgrade-link.tsx';

const withProducts = (productsEnabled: boolean) => ({
  ...anonymousConfig('upload'),
  productsEnabled,
});

describe('UpgradeLink', () => {
  it('links the over-limit message of SPEC §8 to the pricing page', () => {
    renderWithApp(<UpgradeLink message={MESSAGES.overWordLimit} />, { config: withProducts(true) });
    expect(screen.getByRole('link').getAttribute('href')).toBe('/products/');
  });

  it('shows nothing for other messages, or without productsEnabled', () => {
    renderWithApp(<UpgradeLink message={MESSAGES.processFailed} />, { config: withProducts(true) });
    renderWithApp(<UpgradeLink message={MESSAGES.overWordLimit} />, {
      config: withProducts(false),
    });
    expect(screen.queryByRole('link')).toBeNull();
  });
});
