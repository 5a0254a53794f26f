/**
 * The only script public pages run (they are not hydrated): the mobile menu
 * closes on a link click and when the window grows to desktop width, the
 * cookie notice is remembered for the browser session, and embeds (map,
 * calendar) are put in once the page has loaded (components/embed.tsx).
 */
export const PUBLIC_SCRIPT = `(function(){
var t=document.getElementById("nav-toggle");
if(t){document.querySelectorAll("#site-nav a").forEach(function(a){a.addEventListener("click",function(){t.checked=false})});
var m=window.matchMedia("(min-width: 1050px)");var c=function(){if(m.matches)t.checked=false};
m.addEventListener?m.addEventListener("change",c):m.addListener(c);}
var d=document.getElementById("cookie-notice");
if(d){var accept=function(e){if(e)e.preventDefault();try{sessionStorage.setItem("acceptPolicy","true")}catch(x){}d.hidden=true;};
d.querySelector("form").addEventListener("submit",accept);
document.addEventListener("keydown",function(e){if(e.key==="Escape"&&!d.hidden)accept()});}
addEventListener("load",function(){document.querySelectorAll("noscript.embed").forEach(function(n){n.insertAdjacentHTML("afterend",n.textContent)})});
})();`;

/** Runs in <head> before paint: hides the cookie notice already accepted in this session. */
export const HEAD_SCRIPT = `try{if(sessionStorage.getItem("acceptPolicy")==="true")document.documentElement.classList.add("policy-accepted")}catch(e){}`;
