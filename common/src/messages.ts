/** User-facing messages of SPEC §5 and §8, word for word. */
export const MESSAGES = {
  badStatus: (code: number) => `Bad status ${code}`,
  unexpectedStatus: 'Unexpected status',
  unableToLoadGenres: 'Unable to load genres',
  unableToUpdateGenres: 'Unable to update genres',
  unableToUpdatePreference: 'Unable to update preference!',
  informationNotSaved: 'Your information could not be saved',
  noMoreInvites: 'No more invites available',
  unableToSubmit: (detail: string) => `Unable to submit. The server said ${detail}`,
  checkFormFields: 'Check your form fields',
  discoverQueryTooLong: 'That search is too long: use at most 200 characters.',
  discoverBadPage: 'That page number is not one we have: pages start at 1.',
  discoverUnavailable: 'Search is not answering right now. Try again in a moment.',
  pleaseCheckFields: 'Please check your fields',
  enterUserOrEmail: 'Enter a username or email address.',
  inviteNoAccount: "This person doesn't have an account yet! (Email invites coming soon)",
  inviteUnable: 'Unable to invite. The user may already have access.',
  notLoggedIn: 'Not logged in. Refresh the page',
  realtimeBusy: (seconds: number) =>
    `The live comments are busy right now: retrying in ${seconds} s. You can keep reading.`,
  serverCommunication: 'Error communicating with the server!',
  unexpectedResponse: 'Unexpected response!',
  linkDocumentMissing: "Couldn't locate the document. Maybe you archived it?",
  bookmarkForbidden: "You don't have permission to read this manuscript.",
  bookmarkExists: "You've already bookmarked this manuscript.",
  bookmarkMissing: 'manuscript does not exist. It may have been deleted.',
  acceptForbidden: "You don't have permission to accept.",
  inviteMoved: 'The invite was changed or moved.',
  oneFileAtATime: 'Only one file at a time please',
  overWordLimit:
    "Unable to upload because you've reached your word limit. Remove a manuscript or upgrade to the next tier.",
  helpersBusy: 'Our processing helpers are busy, hang tight!',
  takingLonger: 'Thing are taking longer than expected ...',
  noBot: "Can't find a bot to process your document. Try again in a few minutes.",
  processFailed: 'The process failed due to a server error...',
  saveOrCloseComment: 'Save or close the open comment first.',
  blankBio: "A blank slate ... (author hasn't provided yet!)",
  missingHandle: '(missing handle)',
  noneSelected: 'None Selected',
  noReasonGiven: 'No reason given',
  privateComments: 'manuscript Author chose to keep comments private',
  flagged: (reason: string) => `This manuscript was flagged by our moderators. Reason: ${reason}`,
  unableToLoadPayment: 'Unable to load payment',
  unableToRetrieveProducts: 'Unable to retrieve products',
  unableToRetrieveSubscriptions: 'Unable to retrieve subscriptions. For help, contact support.',
  cantLocateSubscription: "Can't locate subscription to modify",
  reportSubmitted: 'Your report has been submitted.',
  accessUpdated: 'Access updated!',
  accessRemoved: 'Access removed',
  copied: 'Copied!',
  addedToReads: 'Added to reads!',
  manuscriptUpdated: 'manuscript updated!',
  manuscriptSaved: 'manuscript saved!',
  subscriptionRenew: 'Subscription set to renew!',
  subscriptionCanceled: 'Subscription canceled. You will not be charged again.',
  // Messages of our own (SPEC is silent).
  csrfRefused:
    'This request was refused because its security token is missing. Reload the page and try again.',
  tooManyRequests: 'Too many attempts. Wait a minute and try again.',
  tooManyWrites: 'You are going faster than we can keep up with. Wait a moment and try again.',
  loginFailed: 'That e-mail and password do not match an account.',
  checkInbox:
    'Check your inbox… If the address can sign up, we have sent it a link to confirm it and log in.',
  emailUnverified:
    'Confirm your e-mail address first: open the link we mailed you, or send it again from the banner at the top of the page.',
  verifiedLogIn: 'Your e-mail address is confirmed. Log in with your password to go on.',
  passwordOneCharacter:
    'This password is one character repeated. Use a mix of characters; a short sentence works well.',
  passwordWhitespace: 'This password is only spaces. Use letters, digits or punctuation too.',
  passwordIsEmail: 'Your password cannot be your e-mail address (or its name before the @).',
  passwordIsHandle: 'Your password cannot be your handle.',
  passwordCommon:
    'This password is on a list of common passwords that attackers try first. Choose another.',
  loginThrottled: (seconds: number) =>
    `Too many failed log-ins. Try again in ${seconds} second${seconds === 1 ? '' : 's'}, or send yourself a log-in link.`,
  loginLinkSent: 'If an account uses that address, a log-in link is on its way. It works once.',
  loginLinkInvalid: 'This log-in link is invalid, expired or already used. Ask for a new one.',
  handleTaken: 'That handle is taken. Try another.',
  notFound: 'Not found.',
  tooManyInvites:
    'You have sent a lot of invites in the last hour. Wait a while, then invite the rest.',
  tooManyUploadsWaiting: (waiting: number) =>
    `You have ${waiting} uploads waiting to be processed. Wait until some of them are done, then upload the rest.`,
  devMailLoopbackOnly:
    'The development mailbox is shown only on the machine the server runs on: open it at http://localhost (127.0.0.1), not through the network or a proxy.',
  devMailLead:
    'No SMTP server is configured, so every e-mail Margins sends is kept here instead. Links in the messages work. Only this machine can open this page.',
  forbidden: "You don't have permission to do that.",
  serverError: 'Something went wrong on our side. Try again in a moment.',
  profileSaved: 'Profile saved!',
  contactSent: 'Thanks! Your message was sent.',
  textEncodingUnknown:
    'We could not tell how the text in this file is encoded, so it would show as gibberish. Open it in your editor, save it as UTF-8 (usually under Save As → Encoding), and upload again.',
} as const;

/** Messages about malformed input (hostile or broken requests): each says what to change. */
export const INPUT_MESSAGES = {
  controlCharacters:
    'Remove the invisible control characters from this field (they often come from copying and pasting).',
  lineBreaks: 'This field takes a single line: remove the line breaks and tabs.',
  reservedFieldName:
    'This form has a field name no form of ours uses (such as "__proto__" or "constructor"). Send the form from the page again.',
  repeatedField: (name: string) => `Send the field "${name}" only once.`,
  tooManyFields: (limit: number) =>
    `This form has too many fields (at most ${limit}). Reload the page and send it again.`,
  formUnreadable:
    'The form could not be read (it was cut off or badly encoded). Reload the page and try again.',
  noBoundary:
    'The form could not be read: its content type has no multipart boundary. Send it from the page again.',
  badAddress: 'This address is not valid. Check the link, or go back and try again.',
  badId:
    'This is not the number of anything here (a whole number from 1, in digits). Check the link, or go back and try again.',
} as const;

/** Reading insights (issue 15): progress, "I'm stopping here", reminders and nudges. */
export const INSIGHTS_MESSAGES = {
  notOwner: 'Only the author of this manuscript can see its insights.',
  noReader: 'This person is not one of the readers of this manuscript.',
  notInReads: 'This manuscript is not in your reads. Add it to your reads first.',
  stopped: 'Thanks for telling the author. Your place is kept if you come back.',
  nudgeSent: 'Reminder sent.',
  nudgeTooSoon: 'You nudged this reader recently. Try again tomorrow.',
  nudgeTooMany: 'You have sent many nudges today. Try again tomorrow.',
  nudgeFinished: 'This reader has finished the manuscript.',
  nudgeStopped: 'This reader has stopped reading and told you why.',
  nudgeNoReminders: 'This reader does not want reminders.',
  unsubscribeConfirm:
    'Turn off reading reminders? Nothing changes until you press the button below.',
  unsubscribed:
    'You will get no more reading reminders. You can turn them back on in your notification preferences.',
  unsubscribeUsed:
    'This unsubscribe link was already used. Your notification preferences are where you can change what we send you.',
  unsubscribeUnknown:
    'This unsubscribe link is not valid. Your notification preferences are where you can change what we send you.',
  reminderDays: 'Choose between 1 and 90 days, or turn reminders off.',
  emptyBatch: 'Send the blocks read, the position, or both.',
} as const;

/** Threads, reactions and exports of all feedback (issue 16). */
export const THREAD_MESSAGES = {
  writeReply: 'Write a reply first.',
  replyToReply: 'Reply to the comment itself: replies go one level deep.',
  resolveOwnerOnly: 'Only the manuscript’s author can resolve or reopen a thread.',
  resolvedBy: 'Resolved by the author',
  unknownReaction: 'Choose one of the reactions offered.',
  exportOwnerOnly: 'Only the manuscript’s author can export its feedback.',
  exportMissing: 'That export no longer exists. Start a new one.',
  exportNotReady: 'That export is not ready yet. Wait for it to finish, then download it.',
  exportFailed: 'The export failed. Try again; if it keeps failing, contact us.',
  noSurvey: 'This manuscript has no survey of that kind.',
  hiddenByModerators: 'Hidden by the moderators',
  orphanedAppendix: 'Notes on passages no longer in this draft',
  replyMailSubject: (title: string) => `New replies to your comments on “${title}”`,
} as const;
