/* Start a club: suggest the address from the name until the address is edited by hand.
 * slugify (no page needed) is what Node loads (tests/js/club_form.test.js). */
(function () {
  "use strict";

  /* The address a name suggests: accents dropped, lower case, runs of anything else one "-",
   * at most 60 characters. */
  function slugify(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  }

  var pure = { slugify: slugify };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
  var name = document.getElementById("id_name");
  var slug = document.getElementById("id_slug");
  if (!name || !slug) return;
  var touched = slug.value !== "";
  slug.addEventListener("input", function () { touched = slug.value !== ""; });
  name.addEventListener("input", function () { if (!touched) slug.value = slugify(name.value); });
})();
