"""A new account (``SIGNUP``): user name, e-mail address and password."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.utils.translation import gettext_lazy as _


class SignupForm(forms.Form):
    """A new account: user name, e-mail address and password (twice), checked by the password
    validators of the settings."""

    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "username"}),
    )
    email = forms.EmailField(label=_("E-mail"), widget=forms.EmailInput({"autocomplete": "email"}))
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput({"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=_("Password (again)"),
        strip=False,
        widget=forms.PasswordInput({"autocomplete": "new-password"}),
    )

    def clean_username(self) -> str:
        users = get_user_model()
        name = self.cleaned_data["username"]
        users.username_validator(name)
        if users.objects.filter(username__iexact=name).exists():
            raise forms.ValidationError(_("This user name is taken: choose another one."))
        return name

    def clean_email(self) -> str:
        email = get_user_model().objects.normalize_email(self.cleaned_data["email"])
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                _("An account already uses this address: log in, or reset its password.")
            )
        return email

    def clean(self):
        data = super().clean()
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ."))
        elif first:
            user = get_user_model()(username=data.get("username", ""), email=data.get("email", ""))
            try:
                password_validation.validate_password(first, user)
            except forms.ValidationError as problems:
                self.add_error("password1", problems)
        return data
