import { z } from "zod";

const role = z.enum(["AUTHORIZED_USER", "ADMIN", "OWNER"], { error: "Please choose a role" });

export const newUserSchema = z.object({
  email: z.string({ error: "Please fill in all required fields." }).trim()
    .min(1, "Please fill in all required fields.").max(254)
    .pipe(z.email("Please enter a valid email address")),
  firstName: z.string({ error: "Please fill in all required fields." }).trim()
    .min(1, "Please fill in all required fields.").max(100),
  lastName: z.string({ error: "Please fill in all required fields." }).trim()
    .min(1, "Please fill in all required fields.").max(100),
  username: z.string({ error: "Username is required and must be at least 3 characters." }).trim()
    .min(3, "Username is required and must be at least 3 characters.").max(60)
    .regex(/^[A-Za-z0-9._@-]+$/, "Username may use letters, digits and . _ @ - only"),
  password: z.string({ error: "Password must be at least 6 characters long." })
    .min(6, "Password must be at least 6 characters long.").max(200),
  role,
});
export type NewUserInput = z.infer<typeof newUserSchema>;

export const resetPasswordSchema = z.object({
  newPassword: z.string({ error: "Password must be at least 6 characters long." })
    .min(6, "Password must be at least 6 characters long.").max(200),
});

export const updateUserSchema = z.union([
  z.object({ role }).strict(),
  z.object({
    username: z.string({ error: "Username must be at least 3 characters long." }).trim()
      .min(3, "Username must be at least 3 characters long.").max(60)
      .regex(/^[A-Za-z0-9._@-]+$/, "Username may use letters, digits and . _ @ - only"),
  }).strict(),
]);

export const changePasswordSchema = z.object({
  currentPassword: z.string({ error: "Please fill all fields and ensure new passwords match." })
    .min(1, "Please fill all fields and ensure new passwords match.").max(200),
  newPassword: z.string({ error: "New password must be at least 6 characters long." })
    .min(6, "New password must be at least 6 characters long.").max(200),
});
