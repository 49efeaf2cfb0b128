import type { SectionDeclaration } from '../types.ts';
import { auditLogSection } from './audit-log.ts';
import { bookmarkSection } from './bookmark.ts';
import { commentSection } from './comment.ts';
import { featureSection } from './feature.ts';
import { couponSection } from './coupon.ts';
import { genreSection } from './genre.ts';
import { giftSection } from './gift.ts';
import { inviteCodeSection } from './invite-code.ts';
import { manuscriptSection } from './manuscript.ts';
import { moderationReportSection } from './moderation-report.ts';
import { productSection } from './product.ts';
import { reportReasonSection } from './report-reason.ts';
import { userSection } from './user.ts';
import { waitingListSection } from './waiting-list.ts';

/** Every admin section, in menu order: a new section is its file and one line here. */
export const SECTIONS: SectionDeclaration[] = [
  moderationReportSection,
  reportReasonSection,
  manuscriptSection,
  commentSection,
  userSection,
  bookmarkSection,
  genreSection,
  inviteCodeSection,
  featureSection,
  productSection,
  couponSection,
  giftSection,
  waitingListSection,
  auditLogSection,
];
