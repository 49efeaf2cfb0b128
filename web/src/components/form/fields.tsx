import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type TextareaHTMLAttributes,
} from 'react';

/** The red list of a field's server messages, tied to the field by id. */
export function FieldErrorList({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <ul id={id} className="field-errors text-danger" data-field-errors>
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

interface FieldShellProps {
  label: ReactNode;
  hint?: ReactNode;
  errors?: string[];
}

type TextFieldProps = FieldShellProps &
  InputHTMLAttributes<HTMLInputElement> & { name: string; className?: string };

/** What a field's control gets from its shell: its id and the ARIA ties to hint and errors. */
interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** Label, the control, an optional hint and the field's error list under it, tied by ids. */
function FieldShell({
  label,
  hint,
  errors,
  className,
  id,
  name,
  children,
}: FieldShellProps & {
  className: string;
  id: string | undefined;
  name: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const generated = useId();
  const inputId = id ?? `${generated}-${name}`;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-errors`;
  const describedBy = [hint ? hintId : null, errors?.length ? errorId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={className}>
      <label htmlFor={inputId} className="field-label">
        {label}
      </label>
      {children({
        id: inputId,
        'aria-invalid': errors?.length ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      <FieldErrorList id={errorId} messages={errors} />
    </div>
  );
}

/** A labelled input with an optional hint and the field's error list under it. */
export function TextField({ label, hint, errors, className = '', id, ...input }: TextFieldProps) {
  return (
    <FieldShell {...{ label, hint, errors, className, id }} name={input.name}>
      {(control) => <input className="field-input" {...control} {...input} />}
    </FieldShell>
  );
}

type TextAreaFieldProps = FieldShellProps &
  TextareaHTMLAttributes<HTMLTextAreaElement> & { name: string; className?: string };

/** A labelled textarea with an optional hint and the field's error list under it. */
export function TextAreaField({
  label,
  hint,
  errors,
  className = '',
  id,
  ...textarea
}: TextAreaFieldProps) {
  return (
    <FieldShell {...{ label, hint, errors, className, id }} name={textarea.name}>
      {(control) => (
        <textarea className="field-input min-h-28 leading-relaxed" {...control} {...textarea} />
      )}
    </FieldShell>
  );
}

/** A form-level message: red for errors, green for success. */
export function FormAlert({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'success' | 'info';
  children: ReactNode;
}) {
  const tones = {
    error: 'border-danger/40 bg-danger-soft text-danger',
    success: 'border-success/30 bg-success-soft text-success',
    info: 'border-line bg-sunken text-ink',
  };
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg border px-4 py-3 text-sm font-medium ${tones[tone]}`}
    >
      {children}
    </div>
  );
}

/** Field errors that name no field of the form, for a list at the top. */
export function otherErrors(errors: Record<string, string[]>, fields: readonly string[]): string[] {
  return Object.entries(errors)
    .filter(([field]) => !fields.includes(field))
    .flatMap(([, messages]) => messages);
}
