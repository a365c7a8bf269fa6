// Start a club: suggest the address from the name until the address is edited by hand.
(function () {
  "use strict";
  var name = document.getElementById("id_name");
  var slug = document.getElementById("id_slug");
  if (!name || !slug) return;
  var touched = slug.value !== "";
  function slugify(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  }
  slug.addEventListener("input", function () { touched = slug.value !== ""; });
  name.addEventListener("input", function () { if (!touched) slug.value = slugify(name.value); });
})();
