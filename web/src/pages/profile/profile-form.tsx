import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  MESSAGES,
  PICTURE_MAX_BYTES,
  PICTURE_TYPES,
  SOCIAL_FIELDS,
  type CurrentUser,
  type PublicUser,
  type SocialField,
} from '@margins/common';
import { ApiError, fieldErrorsOf, type FieldErrors } from '../../api/client.ts';
import { saveProfile } from '../../api/profile.ts';
import { Avatar } from '../../components/avatar.tsx';
import { useFlash, useToast } from '../../components/feedback/feedback.tsx';
import {
  FieldErrorList,
  FormAlert,
  TextAreaField,
  TextField,
  otherErrors,
} from '../../components/form/fields.tsx';
import { SOCIAL_LABELS } from '../../lib/social.ts';

const FIELDS = ['handle', 'display_name', 'about', 'pronouns', 'picture', ...SOCIAL_FIELDS];

const SOCIAL_PLACEHOLDERS: Record<SocialField, string> = {
  bluesky: 'you.bsky.social',
  discord: 'yourname',
  instagram: 'yourname',
  facebook: 'yourname',
  threads: 'yourname',
  mastodon: 'https://mastodon.social/@you',
  twitter: 'yourname',
  tiktok: 'yourname',
  youtube: 'yourchannel',
  website: 'https://your-site.example',
};

const SOCIAL_HINTS: Partial<Record<SocialField, string>> = {
  discord: 'Shown as text; Discord has no profile links.',
  mastodon: 'The full https:// address of your profile.',
  website: 'The full https:// address.',
};

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Unreadable file'));
    reader.readAsDataURL(file);
  });
}

/**
 * The profile form: handle, display name, about, pronouns, picture and the ten social
 * fields, sent as multipart to POST /profile/?format=json. A 400 lists each field's
 * messages under it; another failure flashes "Your information could not be saved".
 */
export function ProfileForm({
  user,
  onSaved,
}: {
  user: CurrentUser;
  onSaved?: (user: PublicUser | undefined) => void;
}) {
  const flash = useFlash();
  const toast = useToast();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [picture, setPicture] = useState(user.picture);
  const [removePicture, setRemovePicture] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useRef(false);

  // After a refused save, take the keyboard (and the eye) to the first field to fix.
  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const save = useMutation({
    mutationFn: (body: FormData) => saveProfile(body),
  });

  const handlePictureChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    setErrors(({ picture: _dropped, ...rest }) => rest);
    if (!file) {
      setPreview(null);
      return;
    }
    if (!(PICTURE_TYPES as readonly string[]).includes(file.type)) {
      setErrors((current) => ({ ...current, picture: ['Choose a PNG, JPEG, WebP or GIF image.'] }));
      event.currentTarget.value = '';
      setPreview(null);
      return;
    }
    if (file.size > PICTURE_MAX_BYTES) {
      const megabytes = PICTURE_MAX_BYTES / 1024 / 1024;
      setErrors((current) => ({ ...current, picture: [`Use an image under ${megabytes} MB.`] }));
      event.currentTarget.value = '';
      setPreview(null);
      return;
    }
    // A data: URL, because the content security policy allows no blob: images.
    setPreview(await readAsDataUrl(file));
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = new FormData(event.currentTarget);
    const file = body.get('picture');
    if (file instanceof File && file.size === 0) body.delete('picture');
    setProblem(null);
    try {
      const response = await save.mutateAsync(body);
      const formErrors = fieldErrorsOf(response);
      if (Object.keys(formErrors).length) {
        focusFirstError.current = true;
        setErrors(formErrors);
        setProblem(MESSAGES.checkFormFields);
        return;
      }
      setErrors({});
      if (response?.user) setPicture(response.user.picture);
      else if (removePicture) setPicture(null);
      setPreview(null);
      setRemovePicture(false);
      if (fileInput.current) fileInput.current.value = '';
      toast(MESSAGES.profileSaved);
      onSaved?.(response?.user);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        focusFirstError.current = true;
        setErrors(error.errors);
        setProblem(MESSAGES.checkFormFields);
        return;
      }
      flash(MESSAGES.informationNotSaved);
    }
  };

  const stray = otherErrors(errors, FIELDS);

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={handleSubmit}
      encType="multipart/form-data"
      aria-label="Profile"
      className="space-y-8"
    >
      {problem ? (
        <FormAlert>
          {problem}
          {stray.length ? <span className="mt-1 block font-normal">{stray.join(' ')}</span> : null}
        </FormAlert>
      ) : null}

      <fieldset className="space-y-5">
        <legend className="mb-4 font-serif text-xl font-semibold">About you</legend>
        <div className="flex flex-col gap-5 sm:flex-row sm:items-center">
          <Avatar
            name={user.display_name}
            picture={preview ?? (removePicture ? null : picture)}
            size="lg"
          />
          <div className="flex-1">
            <label htmlFor="profile-picture" className="field-label">
              Profile picture
            </label>
            <input
              ref={fileInput}
              id="profile-picture"
              name="picture"
              type="file"
              accept={PICTURE_TYPES.join(',')}
              onChange={(event) => void handlePictureChange(event)}
              aria-invalid={errors.picture?.length ? true : undefined}
              aria-describedby="profile-picture-hint"
              className="block w-full text-sm text-muted file:mr-4 file:cursor-pointer file:rounded-full file:border file:border-line file:bg-surface file:px-4 file:py-2 file:text-sm file:font-semibold file:text-ink hover:file:border-accent"
            />
            <p id="profile-picture-hint" className="field-hint">
              {preview ? 'Preview — save to keep it. ' : ''}PNG, JPEG, WebP or GIF, up to{' '}
              {PICTURE_MAX_BYTES / 1024 / 1024} MB.
            </p>
            <FieldErrorList id="profile-picture-errors" messages={errors.picture} />
            {picture && !preview ? (
              <label className="mt-3 flex cursor-pointer items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="remove_picture"
                  value="true"
                  checked={removePicture}
                  onChange={(event) => setRemovePicture(event.target.checked)}
                  className="size-4 accent-(--accent)"
                />
                Remove my picture
              </label>
            ) : null}
          </div>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Handle"
            name="handle"
            defaultValue={user.handle ?? ''}
            autoCapitalize="none"
            spellCheck={false}
            hint="Your @name. Letters, digits and underscores, up to 30."
            errors={errors.handle}
            maxLength={30}
          />
          <TextField
            label="Display name"
            name="display_name"
            defaultValue={user.display_name}
            errors={errors.display_name}
            maxLength={80}
          />
        </div>
        <TextField
          label="Pronouns"
          name="pronouns"
          defaultValue={user.pronouns ?? ''}
          placeholder="she/her, they/them, …"
          errors={errors.pronouns}
          maxLength={40}
          className="sm:w-1/2 sm:pr-2.5"
        />
        <TextAreaField
          label="About"
          name="about"
          defaultValue={user.about ?? ''}
          rows={5}
          hint="A few lines about you and what you write or love to read."
          errors={errors.about}
          maxLength={2000}
        />
      </fieldset>

      <fieldset>
        <legend className="mb-1 font-serif text-xl font-semibold">Find me elsewhere</legend>
        <p className="mb-5 text-sm text-muted">
          Handles or full https:// addresses. Leave a field empty to hide it.
        </p>
        <div className="grid gap-5 sm:grid-cols-2">
          {SOCIAL_FIELDS.map((field) => (
            <TextField
              key={field}
              label={SOCIAL_LABELS[field]}
              name={field}
              defaultValue={user[field] ?? ''}
              placeholder={SOCIAL_PLACEHOLDERS[field]}
              hint={SOCIAL_HINTS[field]}
              autoCapitalize="none"
              spellCheck={false}
              errors={errors[field]}
              maxLength={200}
            />
          ))}
        </div>
      </fieldset>

      <div className="flex items-center justify-end gap-3 border-t border-line pt-6">
        <a href={`/profile/get/${user.id}`} className="btn btn-ghost">
          View public profile
        </a>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save profile'}
        </button>
      </div>
    </form>
  );
}
