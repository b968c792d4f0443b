import type { AdminClient } from '../admin-client.ts'
import type { MetafieldInput } from './metafields-set.ts'
import { mutateReturning } from './requests.ts'

/** Activates a cart and checkout validation function on the shop, with its metafields. */
export const VALIDATION_CREATE = /* GraphQL */ `
  mutation ValidationCreate($validation: ValidationCreateInput!) {
    validationCreate(validation: $validation) {
      validation {
        id
      }
      userErrors {
        code
        field
        message
      }
    }
  }
`

export type ValidationCreate = {
  functionId: string
  title: string
  /** The platform's default is false: a validation made without it exists but never runs. */
  enable: true
  blockOnFailure: boolean
  metafields: Array<Omit<MetafieldInput, 'ownerId'>>
}

/** The new validation's id. PlatformUserError on userErrors (FUNCTION_NOT_FOUND, MAX_VALIDATIONS_ACTIVATED…). */
export async function createValidation(client: AdminClient, validation: ValidationCreate): Promise<string> {
  return (await mutateReturning<{ id: string }>(client, VALIDATION_CREATE, { validation }, 'validation')).id
}
